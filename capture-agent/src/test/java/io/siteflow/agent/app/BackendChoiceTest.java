package io.siteflow.agent.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.config.Backend;
import io.siteflow.agent.config.CaptureOptions;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code --backend auto} without a probe where none is needed, and the start-up line it leads (the probe itself on
 * a live kernel: traffic-lab's EbpfKernelIT).
 */
class BackendChoiceTest {
    @Test
    void autoIsPcapForTheTextReportAndForAFileAndOtherBackendsStayAsGiven() {
        CaptureOptions text = CaptureOptions.builder().iface("eth0").text(true).backend("auto").build();
        assertThat(Sources.choose(text))
                .isEqualTo(new Sources.BackendChoice(Backend.PCAP, "auto: pcap, the text report needs packets"));
        CaptureOptions file = CaptureOptions.builder().file(Path.of("c.pcap")).json("-").backend("auto").build();
        assertThat(Sources.choose(file)).isEqualTo(new Sources.BackendChoice(Backend.PCAP, ""));
        CaptureOptions ebpf = CaptureOptions.builder().iface("eth0").json("-").backend("ebpf").build();
        assertThat(Sources.choose(ebpf)).isEqualTo(new Sources.BackendChoice(Backend.EBPF, ""));
        CaptureOptions pcap = CaptureOptions.builder().iface("eth0").json("-").backend("pcap").build();
        assertThat(Sources.choose(pcap)).isEqualTo(new Sources.BackendChoice(Backend.PCAP, ""));
        assertThat(ebpf.describe()).contains(" backend=ebpf");
        assertThat(pcap.describe()).contains(" backend=pcap");
        assertThat(CaptureOptions.builder().iface("eth0").json("-").backend("auto").build().describe())
                .doesNotContain(" backend=");
    }

    @Test
    void autoIsTheDefaultAndTakesPcapForWorkersAndForAnInterfaceTheProgramCannotRead() {
        CaptureOptions workers = CaptureOptions.builder().iface("eth0").json("-").workers(2).build();
        assertThat(workers.backend()).isEqualTo(Backend.AUTO);
        assertThat(Sources.choose(workers)).isEqualTo(new Sources.BackendChoice(Backend.PCAP,
                "auto: pcap, --workers 2 asks for a fanout group of packet sockets"));
        assertThat(Sources.choose(CaptureOptions.builder().iface("any").json("-").build()))
                .isEqualTo(new Sources.BackendChoice(Backend.PCAP, "auto: pcap, ebpf cannot run here: the any device "
                        + "is no interface a TC program attaches to"));
        assertThat(Sources.choose(CaptureOptions.builder().iface("sf-absent0").json("-").build()))
                .isEqualTo(new Sources.BackendChoice(Backend.PCAP,
                        "auto: pcap, ebpf cannot run here: sf-absent0: no such interface"));
    }
}
