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
        CaptureOptions pcap = CaptureOptions.builder().iface("eth0").json("-").build();
        assertThat(Sources.choose(pcap)).isEqualTo(new Sources.BackendChoice(Backend.PCAP, ""));
        assertThat(ebpf.describe()).contains(" backend=ebpf");
        assertThat(CaptureOptions.builder().iface("eth0").json("-").backend("auto").build().describe())
                .contains(" backend=auto");
    }
}
