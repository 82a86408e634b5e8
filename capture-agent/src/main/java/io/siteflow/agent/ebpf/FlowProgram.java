package io.siteflow.agent.ebpf;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import io.siteflow.agent.capture.CaptureFailure;
import io.siteflow.model.Cidr;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * The compiled programs ({@code /bpf/flows.bpf.o}, built from {@code src/main/bpf/flows.bpf.c}) loaded through libbpf
 * and attached to the clsact ingress ({@link #PROGRAM_IN}) and egress ({@link #PROGRAM_OUT}) hooks of one interface, with siteflow's own filter handle and
 * priority ({@link #HANDLE}, {@link #PRIORITY}). {@link #open} first removes a filter a killed agent left at that
 * place (its program's name starts with {@link #PREFIX}); {@link #close} detaches both filters and removes the clsact qdisc
 * when this program created it. {@link #drain} swaps the flow map in use (the kernel returns from the swap once no
 * program run can still write the old one) and empties the old one with {@code bpf_map_lookup_and_delete_batch}:
 * no count is lost or counted twice; then reads the {@code overflow} ring buffer (packets of new flows that found the
 * map full), then the {@code payloads} ring buffer (the first payload bytes and the changes of direction of the flows
 * user space has not decided; {@link #verdict} and {@link #forget} say what to send for a flow). Open, drain and close from one thread (the one in the interface's network
 * namespace); {@link #counters()} from any.
 */
final class FlowProgram implements AutoCloseable {
    /** The programs' names (what {@code bpftool prog} and {@code tc filter show} print), at most 15 characters. */
    static final String PROGRAM_IN = "siteflow_in";
    static final String PROGRAM_OUT = "siteflow_out";
    /** What every siteflow program's name starts with: such a filter at siteflow's place is a killed agent's. */
    static final String PREFIX = "siteflow_";
    /** The filter handle and priority siteflow's filters take on both hooks. */
    static final int HANDLE = 0x5f1;
    static final int PRIORITY = 0x5f1;
    private static final String NETNS_LINK = "/proc/thread-self/ns/net";
    private static final int O_RDONLY = 0;
    private static final int O_CLOEXEC = 0x80000;
    private static final int CLONE_NEWNET = 0x40000000;
    /** The most entries each flow map holds ({@code MAX_FLOWS} in the C source). */
    static final int MAX_MAP_ENTRIES = 65_536;
    /** Entries read per batch call. */
    private static final int BATCH = 4096;

    private final Libbpf bpf;
    private final Pointer obj;
    private final String iface;
    private final int ifindex;
    private final int progFdIn;
    private final int progFdOut;
    private final int outerFd;
    private final int[] flowFds;
    private final int countersFd;
    private final Pointer ring;
    private final Pointer payloadRing;
    private final int l7stateFd;
    /** Held here: JNA frees a callback whose Java object is collected. */
    private final Libbpf.SampleFn onOverflow = this::overflowRecord;
    private final Libbpf.SampleFn onPayload = this::payloadRecord;
    private Consumer<KernelFlowEntry> draining;
    private Consumer<KernelPayload> payloadsTo;
    private long payloadMalformed;
    private final Memory flowKey = new Memory(KernelFlowEntry.KEY_SIZE);
    /** {@code struct l7_state}: 24 bytes, the verdict at offset 20. */
    private static final int L7STATE_SIZE = 24;
    private static final int VERDICT_OFFSET = 20;
    private final Memory l7Value = new Memory(L7STATE_SIZE);
    private final int cpus;
    private final boolean createdQdisc;
    private final String netns;
    private final int netnsFd;
    private final Memory keys = new Memory((long) BATCH * KernelFlowEntry.KEY_SIZE);
    private final Memory values = new Memory((long) BATCH * KernelFlowEntry.VALUE_SIZE);
    private final Memory batchIn = new Memory(KernelFlowEntry.KEY_SIZE);
    private final Memory batchOut = new Memory(KernelFlowEntry.KEY_SIZE);
    private int inUse;
    private boolean attachedIngress;
    private boolean attachedEgress;
    private String staleRemoved;
    private boolean closed;

    private FlowProgram(Libbpf bpf, Pointer obj, String iface, int ifindex, boolean createdQdisc) throws CaptureFailure {
        this.bpf = bpf;
        this.obj = obj;
        this.iface = iface;
        this.ifindex = ifindex;
        this.createdQdisc = createdQdisc;
        this.netns = currentNetns();
        this.netnsFd = Libbpf.libc().open(NETNS_LINK, O_RDONLY | O_CLOEXEC);
        this.progFdIn = bpf.bpf_program__fd(require(bpf.bpf_object__find_program_by_name(obj, PROGRAM_IN), PROGRAM_IN));
        this.progFdOut = bpf.bpf_program__fd(require(bpf.bpf_object__find_program_by_name(obj, PROGRAM_OUT),
                PROGRAM_OUT));
        this.outerFd = mapFd("flows");
        this.flowFds = new int[] {mapFd("flows_a"), mapFd("flows_b")};
        this.countersFd = mapFd("counters");
        this.cpus = bpf.libbpf_num_possible_cpus();
        this.ring = bpf.ring_buffer__new(mapFd("overflow"), onOverflow, null, null);
        if (ring == null) {
            int errno = Native.getLastError();
            Libbpf.libc().close(netnsFd);
            throw new CaptureFailure("ebpf: opening the overflow ring buffer: " + Errno.describe(errno));
        }
        this.l7stateFd = mapFd("l7state");
        this.payloadRing = bpf.ring_buffer__new(mapFd("payloads"), onPayload, null, null);
        if (payloadRing == null) {
            int errno = Native.getLastError();
            bpf.ring_buffer__free(ring);
            Libbpf.libc().close(netnsFd);
            throw new CaptureFailure("ebpf: opening the payloads ring buffer: " + Errno.describe(errno));
        }
    }

    private int payloadRecord(Pointer ctx, Pointer data, long size) {
        if (payloadsTo != null) {
            int n = (int) Math.min(size, KernelPayload.HEADER_SIZE + KernelPayload.FRAME_MAX);
            KernelPayload r = KernelPayload.decode(data.getByteBuffer(0, n), n);
            if (r == null) {
                payloadMalformed++;
            } else {
                payloadsTo.accept(r);
            }
        }
        return 0;
    }

    private int overflowRecord(Pointer ctx, Pointer data, long size) {
        if (size >= KernelFlowEntry.OVERFLOW_SIZE && draining != null) {
            draining.accept(KernelFlowEntry.overflow(data.getByteBuffer(0, KernelFlowEntry.OVERFLOW_SIZE)));
        }
        return 0;
    }

    /**
     * Loads the program, removes a killed agent's filters, fills the {@code -F} maps and attaches to both hooks of
     * {@code iface} (in the calling thread's network namespace).
     *
     * @param mapEntries flows each of the two flow maps holds (1-{@value #MAX_MAP_ENTRIES}): new flows beyond it
     *                   within one drain period are counted as {@code map full}, not aggregated
     *
     * @throws CaptureFailure naming what is missing (libbpf, the interface, a capability) and suggesting
     *                        {@code --backend pcap}
     */
    static FlowProgram open(String iface, List<Cidr> remoteCidrs, int mapEntries) throws CaptureFailure {
        return open(iface, remoteCidrs, mapEntries, 0);
    }

    /**
     * As {@link #open(String, List, int)}; {@code payloadBytes} frame bytes (at most {@link KernelPayload#FRAME_MAX})
     * of each direction's first payload segments go to user space for the signatures (0: none).
     */
    static FlowProgram open(String iface, List<Cidr> remoteCidrs, int mapEntries, int payloadBytes)
            throws CaptureFailure {
        Libbpf bpf;
        try {
            bpf = Libbpf.load();
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            throw failure("libbpf (libbpf.so.1) could not be loaded: " + e.getMessage()
                    + "; install libbpf1 (Debian) or libbpf (RPM)");
        }
        LibbpfLog.install(bpf);
        int ifindex = Libbpf.libc().if_nametoindex(iface);
        if (ifindex == 0) {
            throw new CaptureFailure("ebpf: " + iface + ": no such interface");
        }
        Optional<String> link = LinkCheck.problem(iface);
        if (link.isPresent()) {
            throw failure(link.get());
        }
        Path object = extractObject();
        Pointer obj = bpf.bpf_object__open_file(object.toString(), null);
        int openErr = Native.getLastError();
        deleteQuietly(object);
        if (obj == null) {
            throw failure("opening the BPF object: " + Errno.describe(openErr));
        }
        FlowProgram p = null;
        try {
            for (String name : new String[] {"flows_a", "flows_b"}) {
                int err = bpf.bpf_map__set_max_entries(require(bpf.bpf_object__find_map_by_name(obj, name), name),
                        mapEntries);
                if (err < 0) {
                    throw new CaptureFailure("ebpf: sizing " + name + " to " + mapEntries + ": " + Errno.describe(-err));
                }
            }
            int err = bpf.bpf_object__load(obj);
            if (err < 0) {
                throw failure("loading the BPF program: " + Errno.describe(-err) + loadHint(-err));
            }
            Memory hook = hook(ifindex, Libbpf.BPF_TC_INGRESS | Libbpf.BPF_TC_EGRESS);
            err = bpf.bpf_tc_hook_create(hook);
            if (err < 0 && -err != Errno.EEXIST) {
                throw failure(iface + ": creating the clsact qdisc: " + Errno.describe(-err)
                        + (-err == Errno.EPERM ? " (needs CAP_NET_ADMIN)" : ""));
            }
            p = new FlowProgram(bpf, obj, iface, ifindex, err == 0);
            p.removeStale();
            p.fillFilter(remoteCidrs);
            p.setPayloadBytes(Math.min(payloadBytes, KernelPayload.FRAME_MAX));
            p.attach();
            return p;
        } catch (CaptureFailure | RuntimeException e) {
            if (p != null) {
                p.close();
            } else {
                bpf.bpf_object__close(obj);
            }
            throw e;
        }
    }

    /**
     * Loads the program into the kernel and unloads it again, attaching nothing: what {@code --backend auto} asks
     * before it chooses ebpf (libbpf present, the verifier takes the program, the capabilities to load it).
     *
     * @throws CaptureFailure as {@link #open} would
     */
    static void probeLoad() throws CaptureFailure {
        Libbpf bpf;
        try {
            bpf = Libbpf.load();
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            throw failure("libbpf (libbpf.so.1) could not be loaded: " + e.getMessage()
                    + "; install libbpf1 (Debian) or libbpf (RPM)");
        }
        LibbpfLog.install(bpf);
        Path object = extractObject();
        Pointer obj = bpf.bpf_object__open_file(object.toString(), null);
        int openErr = Native.getLastError();
        deleteQuietly(object);
        if (obj == null) {
            throw failure("opening the BPF object: " + Errno.describe(openErr));
        }
        try {
            int err = bpf.bpf_object__load(obj);
            if (err < 0) {
                throw failure("loading the BPF program: " + Errno.describe(-err) + loadHint(-err));
            }
        } finally {
            bpf.bpf_object__close(obj);
        }
    }

    /**
     * What a failed load most likely lacks: EPERM, a capability to load at all; EACCES, CAP_PERFMON, without which
     * the verifier refuses the program's pointer arithmetic ("prohibited for !root").
     */
    static String loadHint(int errno) {
        if (errno == Errno.EPERM) {
            return " (needs CAP_BPF, CAP_PERFMON and CAP_NET_ADMIN, or root)";
        }
        if (errno == Errno.EACCES) {
            return " (the verifier refused it: without CAP_PERFMON it forbids the program's pointer arithmetic;"
                    + " needs CAP_PERFMON, or root)";
        }
        return "";
    }

    private static CaptureFailure failure(String what) {
        return new CaptureFailure("ebpf: " + what + "; use --backend pcap where the in-kernel source cannot run");
    }

    /** What a killed agent's filter {@link #open} removed ("ingress, egress"), or null when there was none. */
    String staleRemoved() {
        return staleRemoved;
    }

    private static Path extractObject() throws CaptureFailure {
        try (InputStream in = FlowProgram.class.getResourceAsStream("/bpf/flows.bpf.o")) {
            if (in == null) {
                throw new CaptureFailure("ebpf: /bpf/flows.bpf.o is not on the class path");
            }
            Path tmp = Files.createTempFile("siteflow-flows", ".bpf.o");
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            return tmp;
        } catch (IOException e) {
            throw new CaptureFailure("ebpf: writing the BPF object to a temporary file: " + e.getMessage(), e);
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // a temporary file left behind is harmless
        }
    }

    private int mapFd(String name) throws CaptureFailure {
        return bpf.bpf_map__fd(require(bpf.bpf_object__find_map_by_name(obj, name), name));
    }

    private static Pointer require(Pointer p, String name) throws CaptureFailure {
        if (p == null) {
            throw new CaptureFailure("ebpf: the BPF object has no " + name);
        }
        return p;
    }

    private static Memory hook(int ifindex, int attachPoint) {
        Memory m = new Memory(Libbpf.TC_HOOK_SIZE);
        m.clear();
        m.setLong(0, Libbpf.TC_HOOK_SIZE);
        m.setInt(8, ifindex);
        m.setInt(12, attachPoint);
        return m;
    }

    private static Memory opts(int progFd) {
        Memory m = new Memory(Libbpf.TC_OPTS_SIZE);
        m.clear();
        m.setLong(0, Libbpf.TC_OPTS_SIZE);
        m.setInt(8, progFd);
        m.setInt(20, HANDLE);
        m.setInt(24, PRIORITY);
        return m;
    }

    /** Detaches a siteflow program left at siteflow's handle and priority (a killed agent's) on either hook. */
    private void removeStale() throws CaptureFailure {
        StringBuilder removed = new StringBuilder();
        for (int point : new int[] {Libbpf.BPF_TC_INGRESS, Libbpf.BPF_TC_EGRESS}) {
            Memory hook = hook(ifindex, point);
            Memory q = opts(0);
            if (bpf.bpf_tc_query(hook, q) < 0) {
                continue; // nothing there
            }
            int progId = q.getInt(16);
            String name = programName(bpf, progId);
            OptionalLong holder = ProgramHolders.holder(progId);
            if (name.startsWith(PREFIX) && holder.isPresent()) {
                throw new CaptureFailure("ebpf: " + inUse(iface, point, holder.getAsLong())
                        + "; one in-kernel agent per interface: stop that one, or capture beside it with --backend pcap");
            }
            if (!name.startsWith(PREFIX)) {
                throw new CaptureFailure("ebpf: " + iface + ": " + hookName(point) + " filter handle 0x"
                        + Integer.toHexString(HANDLE) + " priority " + PRIORITY + " holds program '" + name
                        + "', not siteflow's; remove it (tc filter del dev " + iface + " " + hookName(point) + ")");
            }
            int err = bpf.bpf_tc_detach(hook, opts(0));
            if (err < 0) {
                throw new CaptureFailure("ebpf: " + iface + ": removing a stale " + hookName(point) + " filter: "
                        + Errno.describe(-err));
            }
            removed.append(removed.length() == 0 ? "" : ", ").append(hookName(point));
        }
        staleRemoved = removed.length() == 0 ? null : removed.toString();
    }

    /**
     * Why {@code iface} cannot take this agent's program: another live agent's siteflow program sits on one of its
     * hooks (held open by that process, {@link ProgramHolders}); empty when none does. A killed agent's program,
     * which no process holds, is no reason: {@link #open} removes it.
     */
    static Optional<String> liveAgentOn(String iface) {
        Libbpf bpf;
        try {
            bpf = Libbpf.load();
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            return Optional.empty(); // the probe names a missing libbpf
        }
        int ifindex = Libbpf.libc().if_nametoindex(iface);
        if (ifindex == 0) {
            return Optional.empty();
        }
        for (int point : new int[] {Libbpf.BPF_TC_INGRESS, Libbpf.BPF_TC_EGRESS}) {
            Memory q = opts(0);
            if (bpf.bpf_tc_query(hook(ifindex, point), q) < 0) {
                continue;
            }
            int progId = q.getInt(16);
            OptionalLong holder = ProgramHolders.holder(progId);
            if (programName(bpf, progId).startsWith(PREFIX) && holder.isPresent()) {
                return Optional.of(inUse(iface, point, holder.getAsLong()));
            }
        }
        return Optional.empty();
    }

    private static String inUse(String iface, int point, long pid) {
        return iface + "'s " + hookName(point) + " hook holds the program of another siteflow agent (pid " + pid
                + ")";
    }

    private static String programName(Libbpf bpf, int id) {
        int fd = bpf.bpf_prog_get_fd_by_id(id);
        if (fd < 0) {
            return "#" + id;
        }
        try {
            Memory info = new Memory(Libbpf.PROG_INFO_SIZE);
            info.clear();
            IntByReference len = new IntByReference(Libbpf.PROG_INFO_SIZE);
            if (bpf.bpf_obj_get_info_by_fd(fd, info, len) < 0) {
                return "#" + id;
            }
            return info.getString(Libbpf.PROG_INFO_NAME_OFFSET);
        } finally {
            Libbpf.libc().close(fd);
        }
    }

    private static String hookName(int point) {
        return point == Libbpf.BPF_TC_INGRESS ? "ingress" : "egress";
    }

    private void fillFilter(List<Cidr> cidrs) throws CaptureFailure {
        Memory one = new Memory(1);
        one.setByte(0, (byte) 1);
        int remote = mapFd("remote");
        for (Cidr c : cidrs) {
            Memory key = new Memory(20);
            key.setInt(0, c.bits());
            key.write(4, bigEndian(c.hi(), c.lo()), 0, 16);
            update(remote, key, one, "-F " + c);
        }
        Memory zero = new Memory(4);
        zero.setInt(0, 0);
        Memory on = new Memory(4);
        on.setInt(0, cidrs.isEmpty() ? 0 : 1);
        update(mapFd("config"), zero, on, "config");
    }

    private void setPayloadBytes(int n) throws CaptureFailure {
        Memory one = new Memory(4);
        one.setInt(0, 1);
        Memory value = new Memory(4);
        value.setInt(0, Math.max(0, n));
        update(mapFd("config"), one, value, "config[1]");
    }

    private void writeKey(KernelFlows.Key k) {
        flowKey.clear();
        flowKey.setLong(0, k.aHi());
        flowKey.setLong(8, k.aLo());
        flowKey.setLong(16, k.bHi());
        flowKey.setLong(24, k.bLo());
        flowKey.setShort(32, (short) (k.ports() >>> 16));
        flowKey.setShort(34, (short) k.ports());
        flowKey.setByte(36, (byte) k.proto());
    }

    /**
     * Tells the program what to send of a flow's payload from now on ({@link FlowPayload#DB}: the changes of
     * direction; {@link FlowPayload#DONE}: nothing): the verdict byte of the flow's {@code l7state} entry, read,
     * set and written back (only if the entry is still there: one the LRU map dropped starts afresh, which costs the
     * flow a few more records). A segment the program handles between the read and the write loses its update of
     * that entry (once per flow, a microsecond: at most one change of direction).
     */
    void verdict(KernelFlows.Key k, int verdict) {
        writeKey(k);
        if (bpf.bpf_map_lookup_elem(l7stateFd, flowKey, l7Value) == 0) {
            l7Value.setByte(VERDICT_OFFSET, (byte) verdict);
            bpf.bpf_map_update_elem(l7stateFd, flowKey, l7Value, Libbpf.BPF_EXIST);
        }
    }

    /** The flow ended: its payload state and verdict are removed, so a new flow on the key is looked at afresh. */
    void forget(KernelFlows.Key k) {
        writeKey(k);
        bpf.bpf_map_delete_elem(l7stateFd, flowKey);
    }

    /** Payload records too short for what their header says (none unless the layouts disagree). */
    long payloadMalformed() {
        return payloadMalformed;
    }

    private static byte[] bigEndian(long hi, long lo) {
        return ByteBuffer.allocate(16).putLong(hi).putLong(lo).array();
    }

    private void update(int fd, Pointer key, Pointer value, String what) throws CaptureFailure {
        int err = bpf.bpf_map_update_elem(fd, key, value, Libbpf.BPF_ANY);
        if (err < 0) {
            throw new CaptureFailure("ebpf: setting " + what + ": " + Errno.describe(-err));
        }
    }

    private void attach() throws CaptureFailure {
        for (int point : new int[] {Libbpf.BPF_TC_INGRESS, Libbpf.BPF_TC_EGRESS}) {
            int err = bpf.bpf_tc_attach(hook(ifindex, point),
                    opts(point == Libbpf.BPF_TC_INGRESS ? progFdIn : progFdOut));
            if (err < 0) {
                throw failure(iface + ": attaching to " + hookName(point) + ": " + Errno.describe(-err));
            }
            if (point == Libbpf.BPF_TC_INGRESS) {
                attachedIngress = true;
            } else {
                attachedEgress = true;
            }
        }
    }

    /**
     * Swaps the flow map in use and gives every entry of the old one to {@code each}, emptying it, then every record
     * of the overflow ring buffer (a packet of a flow the map could not take) as an entry of one packet.
     *
     * @return entries and records drained
     */
    int drain(Consumer<KernelFlowEntry> each) throws CaptureFailure {
        return drain(each, r -> { });
    }

    /**
     * As {@link #drain(Consumer)}, then every record of the {@code payloads} ring buffer to {@code payloads}, in the
     * order the kernel sent them.
     */
    int drain(Consumer<KernelFlowEntry> each, Consumer<KernelPayload> payloads) throws CaptureFailure {
        int old = inUse;
        inUse = 1 - inUse;
        Memory zero = new Memory(4);
        zero.setInt(0, 0);
        Memory fd = new Memory(4);
        fd.setInt(0, flowFds[inUse]);
        int err = bpf.bpf_map_update_elem(outerFd, zero, fd, Libbpf.BPF_ANY);
        if (err < 0) {
            throw new CaptureFailure("ebpf: swapping the flow map: " + Errno.describe(-err));
        }
        return empty(flowFds[old], each) + consumeOverflow(each) + consumePayloads(payloads);
    }

    private int consumePayloads(Consumer<KernelPayload> to) throws CaptureFailure {
        payloadsTo = to;
        try {
            return consume(payloadRing, "payloads");
        } finally {
            payloadsTo = null;
        }
    }

    private int consumeOverflow(Consumer<KernelFlowEntry> each) throws CaptureFailure {
        draining = each;
        try {
            return consume(ring, "overflow");
        } finally {
            draining = null;
        }
    }

    /** Reads every event waiting in a ring buffer through its callback; the count read. */
    private int consume(Pointer ringBuffer, String name) throws CaptureFailure {
        int n = bpf.ring_buffer__consume(ringBuffer);
        if (n < 0) {
            throw new CaptureFailure("ebpf: reading the " + name + " ring buffer: " + Errno.describe(-n));
        }
        return n;
    }

    /** Drains both flow maps (after {@link #detach()}: nothing writes them any more). */
    int drainAll(Consumer<KernelFlowEntry> each) throws CaptureFailure {
        return drain(each) + drain(each);
    }

    /** As {@link #drainAll(Consumer)}, with the payload records. */
    int drainAll(Consumer<KernelFlowEntry> each, Consumer<KernelPayload> payloads) throws CaptureFailure {
        return drain(each, payloads) + drain(each, payloads);
    }

    private int empty(int mapFd, Consumer<KernelFlowEntry> each) throws CaptureFailure {
        int total = 0;
        boolean first = true;
        while (true) {
            IntByReference count = new IntByReference(BATCH);
            int err = bpf.bpf_map_lookup_and_delete_batch(mapFd, first ? null : batchIn, batchOut, keys, values,
                    count, null);
            if (err < 0 && -err != Errno.ENOENT) {
                throw new CaptureFailure("ebpf: draining the flow map: " + Errno.describe(-err));
            }
            int n = count.getValue();
            ByteBuffer k = keys.getByteBuffer(0, (long) n * KernelFlowEntry.KEY_SIZE);
            ByteBuffer v = values.getByteBuffer(0, (long) n * KernelFlowEntry.VALUE_SIZE);
            for (int i = 0; i < n; i++) {
                each.accept(KernelFlowEntry.decode(k, v, i));
            }
            total += n;
            if (err < 0) {
                return total;
            }
            batchIn.write(0, batchOut.getByteArray(0, KernelFlowEntry.KEY_SIZE), 0, KernelFlowEntry.KEY_SIZE);
            first = false;
        }
    }

    /** The program's counters now, summed over the CPUs. */
    KernelCounters counters() {
        long[] sums = new long[KernelCounters.COUNT];
        Memory key = new Memory(4);
        Memory value = new Memory(8L * Math.max(1, cpus));
        for (int i = 0; i < sums.length; i++) {
            key.setInt(0, i);
            if (bpf.bpf_map_lookup_elem(countersFd, key, value) == 0) {
                for (int c = 0; c < cpus; c++) {
                    sums[i] += value.getLong(8L * c);
                }
            }
        }
        return KernelCounters.of(sums);
    }

    /** Detaches both filters (idempotent); the maps stay readable. From any thread. */
    synchronized void detach() {
        inOwnNamespace(this::detachHere);
    }

    private void detachHere() {
        if (attachedIngress) {
            bpf.bpf_tc_detach(hook(ifindex, Libbpf.BPF_TC_INGRESS), opts(0));
            attachedIngress = false;
        }
        if (attachedEgress) {
            bpf.bpf_tc_detach(hook(ifindex, Libbpf.BPF_TC_EGRESS), opts(0));
            attachedEgress = false;
        }
    }

    /**
     * Runs a {@code bpf_tc_*} step in the network namespace the program was attached in: interface indexes are per
     * namespace, and a stop may come from a thread elsewhere (a signal handler's); such a call runs on a thread that
     * has entered the namespace first ({@code setns(2)}).
     */
    private void inOwnNamespace(Runnable step) {
        if (netns.equals(currentNetns()) || netnsFd < 0) {
            step.run();
            return;
        }
        Thread t = new Thread(() -> {
            if (Libbpf.libc().setns(netnsFd, CLONE_NEWNET) != 0) {
                throw new IllegalStateException("ebpf: cannot enter the network namespace of " + iface
                        + " to detach: errno " + Native.getLastError());
            }
            step.run();
        }, "siteflow-ebpf-detach");
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String currentNetns() {
        try {
            return Files.readSymbolicLink(Path.of(NETNS_LINK)).toString();
        } catch (IOException e) {
            return "?";
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        inOwnNamespace(() -> {
            detachHere();
            if (createdQdisc) {
                bpf.bpf_tc_hook_destroy(hook(ifindex, Libbpf.BPF_TC_INGRESS | Libbpf.BPF_TC_EGRESS));
            }
        });
        bpf.ring_buffer__free(ring);
        bpf.ring_buffer__free(payloadRing);
        bpf.bpf_object__close(obj);
        if (netnsFd >= 0) {
            Libbpf.libc().close(netnsFd);
        }
    }
}
