package io.siteflow.agent.ebpf;

import io.siteflow.agent.capture.CaptureFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code --backend auto} asks before it chooses the in-kernel source (capture-agent/docs/ebpf.md "--backend
 * auto"): a kernel of 5.12 or later (the program's atomic OR), CAP_NET_ADMIN, CAP_BPF and CAP_PERFMON (the
 * last two or CAP_SYS_ADMIN) in the effective set, and then the program itself loaded and unloaded through libbpf (libbpf1 present, the verifier takes
 * it). The kernel's own BTF is not asked for: the program uses no CO-RE. Static; thread-safe.
 */
public final class EbpfProbe {
    private static final int CAP_NET_ADMIN = 12;
    private static final int CAP_SYS_ADMIN = 21;
    private static final int CAP_PERFMON = 38;
    private static final int CAP_BPF = 39;
    private static final Pattern RELEASE = Pattern.compile("^(\\d+)\\.(\\d+)");
    private static final Pattern CAP_EFF = Pattern.compile("(?m)^CapEff:\\s*([0-9a-fA-F]+)$");

    private EbpfProbe() {
    }

    /**
     * The answer: {@code usable} with what was found, or not with the first thing missing.
     *
     * @param reason for the start-up line, e.g. {@code kernel 6.18, CAP_BPF, CAP_PERFMON and CAP_NET_ADMIN, the program loads}
     */
    public record Result(boolean usable, String reason) {
    }

    /** Probes this process on this kernel; loads the program (and unloads it) only when the rest is there. */
    public static Result probe() {
        String release = read(Path.of("/proc/sys/kernel/osrelease"), System.getProperty("os.version", "?")).trim();
        String status = read(Path.of("/proc/self/status"), "");
        Result r = check(release, status);
        if (!r.usable()) {
            return r;
        }
        try {
            FlowProgram.probeLoad();
            return new Result(true, r.reason() + ", the program loads");
        } catch (CaptureFailure e) {
            return new Result(false, e.getMessage().replaceFirst("; use --backend pcap.*$", ""));
        }
    }

    /**
     * Empty when the program can read {@code iface} (an Ethernet or loopback interface of this thread's network
     * namespace), else why not, e.g. {@code "tun0 is not an Ethernet interface (ARPHRD type 65534): the program
     * reads Ethernet frames"}. Needs libc only.
     */
    public static Optional<String> interfaceProblem(String iface) {
        return LinkCheck.problem(iface);
    }

    /**
     * Empty unless another live siteflow agent's program sits on {@code iface}'s hooks, else that, e.g.
     * {@code "eth0's ingress hook holds the program of another siteflow agent (pid 4242)"}: one in-kernel agent per
     * interface (a second would have to detach the first's). Needs libbpf; ask after {@link #probe()}.
     */
    public static Optional<String> liveAgentOn(String iface) {
        return FlowProgram.liveAgentOn(iface);
    }

    /**
     * The checks without loading anything, on a kernel release ({@code uname -r}) and the text of
     * {@code /proc/self/status}.
     */
    static Result check(String release, String status) {
        Matcher m = RELEASE.matcher(release);
        if (!m.find()) {
            return new Result(false, "kernel release '" + release + "' not understood");
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        String kernel = "kernel " + major + "." + minor;
        if (major < 5 || major == 5 && minor < 12) {
            return new Result(false, kernel + " is older than 5.12 (the program needs BPF atomics)");
        }
        Matcher c = CAP_EFF.matcher(status);
        if (!c.find()) {
            return new Result(false, "no CapEff line in /proc/self/status");
        }
        long caps = Long.parseUnsignedLong(c.group(1), 16);
        boolean netAdmin = (caps >>> CAP_NET_ADMIN & 1) != 0;
        boolean sysAdmin = (caps >>> CAP_SYS_ADMIN & 1) != 0;
        boolean bpf = (caps >>> CAP_BPF & 1) != 0 || sysAdmin;
        boolean perfmon = (caps >>> CAP_PERFMON & 1) != 0 || sysAdmin;
        if (!netAdmin || !bpf || !perfmon) {
            List<String> missing = new java.util.ArrayList<>();
            if (!bpf) {
                missing.add("CAP_BPF (or CAP_SYS_ADMIN)");
            }
            if (!perfmon) {
                missing.add("CAP_PERFMON (or CAP_SYS_ADMIN)");
            }
            if (!netAdmin) {
                missing.add("CAP_NET_ADMIN");
            }
            return new Result(false, "no " + String.join(" and no ", missing) + " in the effective capabilities");
        }
        return new Result(true, kernel + ", CAP_BPF, CAP_PERFMON and CAP_NET_ADMIN");
    }

    private static String read(Path p, String otherwise) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            return otherwise;
        }
    }
}
