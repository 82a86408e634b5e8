package io.siteflow.agent.ebpf;

import com.sun.jna.Callback;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;

/**
 * The libbpf 1.x calls the in-kernel source makes, through JNA ({@code libbpf.so.1}, Debian's {@code libbpf1}). Calls
 * that return an int give 0 or a negative errno; {@link #bpf_object__open_file} gives null and sets errno. Only
 * set-up, the drain and the counters cross into native code; nothing per packet. Thread-safe as libbpf is (each call
 * stands alone); the {@code bpf_tc_*} calls act on the network namespace of the calling thread.
 */
interface Libbpf extends Library {
    /** {@code enum bpf_tc_attach_point}. */
    int BPF_TC_INGRESS = 1;
    int BPF_TC_EGRESS = 2;
    /** {@code struct bpf_tc_hook}: size_t sz; int ifindex; enum attach_point; __u32 parent (24 bytes). */
    int TC_HOOK_SIZE = 24;
    /** {@code struct bpf_tc_opts}: size_t sz; int prog_fd; __u32 flags, prog_id, handle, priority (32 bytes). */
    int TC_OPTS_SIZE = 32;
    /** {@code struct bpf_prog_info}: bytes read (up to and including {@code name[16]} at offset 64). */
    int PROG_INFO_SIZE = 80;
    int PROG_INFO_NAME_OFFSET = 64;
    long BPF_ANY = 0;
    long BPF_EXIST = 2;

    Pointer bpf_object__open_file(String path, Pointer opts);

    int bpf_object__load(Pointer obj);

    void bpf_object__close(Pointer obj);

    Pointer bpf_object__find_program_by_name(Pointer obj, String name);

    int bpf_program__fd(Pointer prog);

    Pointer bpf_object__find_map_by_name(Pointer obj, String name);

    int bpf_map__fd(Pointer map);

    int bpf_map__set_max_entries(Pointer map, int maxEntries);

    int bpf_tc_hook_create(Pointer hook);

    int bpf_tc_hook_destroy(Pointer hook);

    int bpf_tc_attach(Pointer hook, Pointer opts);

    int bpf_tc_detach(Pointer hook, Pointer opts);

    int bpf_tc_query(Pointer hook, Pointer opts);

    int bpf_map_update_elem(int fd, Pointer key, Pointer value, long flags);

    int bpf_map_lookup_elem(int fd, Pointer key, Pointer value);

    int bpf_map_delete_elem(int fd, Pointer key);

    int bpf_map_lookup_and_delete_batch(int fd, Pointer inBatch, Pointer outBatch, Pointer keys, Pointer values,
            IntByReference count, Pointer opts);

    int bpf_prog_get_fd_by_id(int id);

    int bpf_obj_get_info_by_fd(int fd, Pointer info, IntByReference length);

    int libbpf_num_possible_cpus();

    /** {@code libbpf_print_fn_t}: level (0 warn, 1 info, 2 debug), printf format, its {@code va_list}. */
    interface PrintFn extends Callback {
        int invoke(int level, String format, Pointer args);
    }

    Pointer libbpf_set_print(PrintFn fn);

    /** {@code ring_buffer_sample_fn}: one record of a ring buffer; returns 0 to go on. */
    interface SampleFn extends Callback {
        int invoke(Pointer ctx, Pointer data, long size);
    }

    Pointer ring_buffer__new(int mapFd, SampleFn sample, Pointer ctx, Pointer opts);

    int ring_buffer__consume(Pointer ring);

    void ring_buffer__free(Pointer ring);

    /** The library, loaded on first use. */
    static Libbpf load() {
        return Holder.LIB;
    }

    /** libc: what libbpf leaves to the caller. */
    interface LibC extends Library {
        int close(int fd);

        int if_nametoindex(String name);

        int open(String path, int flags);

        int setns(int fd, int nstype);

        int vsnprintf(Pointer buffer, long size, String format, Pointer args);
    }

    /** libc, loaded on first use. */
    static LibC libc() {
        return Holder.LIBC;
    }

    /** Lazy holder: loading fails with {@link UnsatisfiedLinkError} when libbpf is not installed. */
    final class Holder {
        static final Libbpf LIB = Native.load(System.getProperty("siteflow.libbpf", "libbpf.so.1"), Libbpf.class);
        static final LibC LIBC = Native.load("c", LibC.class);

        private Holder() {
        }
    }
}
