package io.siteflow.agent.ebpf;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What {@code --backend auto} checks before it loads the program: the kernel release and the capabilities. */
class EbpfProbeTest {
    private static String status(String capEff) {
        return "Name:\tjava\nCapInh:\t0000000000000000\nCapPrm:\t000001ffffffffff\nCapEff:\t" + capEff
                + "\nCapBnd:\t000001ffffffffff\n";
    }

    @Test
    void acceptsAKernelOf512OrLaterWithCapBpfAndCapNetAdmin() {
        assertThat(EbpfProbe.check("6.18.44-fc-v1098", status("000001ffffffffff")))
                .isEqualTo(new EbpfProbe.Result(true, "kernel 6.18, CAP_BPF, CAP_PERFMON and CAP_NET_ADMIN"));
        assertThat(EbpfProbe.check("5.12.0", status("000000c000001000")))
                .as("CAP_BPF (39), CAP_PERFMON (38) and CAP_NET_ADMIN (12) alone").extracting(EbpfProbe.Result::usable).isEqualTo(true);
        assertThat(EbpfProbe.check("5.15.0-91-generic", status("0000000000201000")))
                .as("CAP_SYS_ADMIN stands for CAP_BPF and CAP_PERFMON").extracting(EbpfProbe.Result::usable).isEqualTo(true);
    }

    @Test
    void namesAnOldKernel() {
        assertThat(EbpfProbe.check("5.10.0-28-amd64", status("000001ffffffffff")))
                .isEqualTo(new EbpfProbe.Result(false, "kernel 5.10 is older than 5.12 (the program needs BPF atomics)"));
        assertThat(EbpfProbe.check("4.19.0", status("000001ffffffffff")).reason())
                .isEqualTo("kernel 4.19 is older than 5.12 (the program needs BPF atomics)");
        assertThat(EbpfProbe.check("linux", status("000001ffffffffff")).reason())
                .isEqualTo("kernel release 'linux' not understood");
    }

    @Test
    void namesEachMissingCapability() {
        assertThat(EbpfProbe.check("6.1.0", status("0000000000000000"))).isEqualTo(new EbpfProbe.Result(false,
                "no CAP_BPF (or CAP_SYS_ADMIN) and no CAP_PERFMON (or CAP_SYS_ADMIN) and no CAP_NET_ADMIN in the effective"
                        + " capabilities"));
        assertThat(EbpfProbe.check("6.1.0", status("0000004000001000")).reason())
                .isEqualTo("no CAP_BPF (or CAP_SYS_ADMIN) in the effective capabilities");
        assertThat(EbpfProbe.check("6.1.0", status("000000c000000000")).reason())
                .isEqualTo("no CAP_NET_ADMIN in the effective capabilities");
        assertThat(EbpfProbe.check("6.1.0", status("0000008000001000")).reason())
                .as("CAP_BPF without CAP_PERFMON: the verifier would refuse the program's pointer arithmetic")
                .isEqualTo("no CAP_PERFMON (or CAP_SYS_ADMIN) in the effective capabilities");
        assertThat(EbpfProbe.check("6.1.0", "Name:\tjava\n").reason()).isEqualTo("no CapEff line in /proc/self/status");
    }
}
