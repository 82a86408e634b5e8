package io.siteflow.agent.ebpf;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes libbpf's messages (which it prints to stderr by default) to the log: warnings as warnings (a verifier log
 * included), except the one a query for a filter that is not there gives; the rest at trace. libbpf starts its lines with {@code libbpf: }. Thread-safe.
 */
final class LibbpfLog implements Libbpf.PrintFn {
    private static final Logger LOG = LoggerFactory.getLogger("io.siteflow.agent.ebpf.libbpf");
    /** What the kernel says when {@code bpf_tc_query} finds no filter: the usual answer, not a problem. */
    private static final String NO_FILTER = "Cannot find specified filter chain";
    /** What {@code bpf_tc_hook_create} gets when the clsact qdisc is there already (EEXIST, which is fine). */
    private static final String QDISC_THERE = "Exclusivity flag on";
    /** Held here: JNA frees a callback whose Java object is collected. */
    private static final LibbpfLog INSTANCE = new LibbpfLog();
    private static boolean installed;

    private LibbpfLog() {
    }

    /** Installs the callback once. */
    static synchronized void install(Libbpf bpf) {
        if (!installed) {
            bpf.libbpf_set_print(INSTANCE);
            installed = true;
        }
    }

    @Override
    public int invoke(int level, String format, Pointer args) {
        Memory buffer = new Memory(4096);
        int n = Libbpf.libc().vsnprintf(buffer, buffer.size(), format, args);
        String message = n < 0 ? format : buffer.getString(0).stripTrailing();
        if (level == 0 && !message.contains(NO_FILTER) && !message.contains(QDISC_THERE)) {
            LOG.warn("{}", message);
        } else {
            LOG.trace("{}", message);
        }
        return Math.max(n, 0);
    }
}
