package io.siteflow.agent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.agent.capture.live.LiveCaptureLimits;
import io.siteflow.agent.capture.live.LiveReader;
import io.siteflow.model.Cidr;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CaptureOptionsBuilderTest {

    @Test
    void holdsEveryDefault() {
        CaptureOptions o = CaptureOptions.builder().file(Path.of("c.pcap")).agent("a").build();

        assertThat(o).isEqualTo(new CaptureOptions(null, Path.of("c.pcap"), List.of(), "a", null, Map.of(), null, true,
                null, 10, false, 256, 64 << 20, null, "127.0.0.1", Duration.ofSeconds(10), Duration.ofSeconds(30),
                262_144, Path.of(System.getProperty("user.home"), ".local", "state", "siteflow", "spool", "a"),
                1024L << 20, false, false, 0, true, ReportOrder.TEN_SECONDS, false, 1, Backend.AUTO, null));
    }

    @Test
    void takesIftopSortOrdersAndRejectsOthersNamingThem() {
        assertThat(CaptureOptions.builder().iface("eth0").order("destination").build().order())
                .isEqualTo(ReportOrder.DESTINATION);
        assertThatThrownBy(() -> CaptureOptions.builder().iface("eth0").order("5s").build())
                .hasMessage("-o 5s: must be one of 2s, 10s, 40s, source, destination");
    }

    @Test
    void takesIpv6NetworksWithMinusGAndRefusesIpv4There() {
        assertThat(CaptureOptions.builder().iface("eth0").remoteCidr6("fd00:1::/64").build().remoteCidrs())
                .extracting(Object::toString).containsExactly("fd00:1::/64");
        assertThatThrownBy(() -> CaptureOptions.builder().iface("eth0").remoteCidr6("10.1.0.0/16").build())
                .hasMessage("-G 10.1.0.0/16: not an IPv6 network (IPv4 networks go with -F)");
    }

    @Test
    void rejectsWorkersOutOfRangeOrForAFile() {
        assertThatThrownBy(() -> CaptureOptions.builder().iface("eth0").workers(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--workers 0: must be 1-64");
        assertThatThrownBy(() -> CaptureOptions.builder().iface("eth0").workers(65).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--workers 65: must be 1-64");
        assertThatThrownBy(() -> CaptureOptions.builder().file(Path.of("c.pcap")).workers(2).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--workers 2 needs -i IFACE (a file is read by one thread)");
        assertThat(CaptureOptions.builder().iface("eth0").workers(4).build().workers()).isEqualTo(4);
    }

    @Test
    void reportIsOnlyTheDefaultWithoutJsonOrKafka() {
        assertThat(CaptureOptions.builder().iface("eth0").json("-").build().text()).isFalse();
        assertThat(CaptureOptions.builder().iface("eth0").bootstrap("k:9092").build().text()).isFalse();
        assertThat(CaptureOptions.builder().iface("eth0").bootstrap("k:9092").text(true).build().text()).isTrue();
    }

    @Test
    void parsesCidrsGivenAsTextAfterThoseGivenParsed() {
        CaptureOptions o = CaptureOptions.builder().iface("eth0").remoteCidrs(List.of(Cidr.parse("10.1.0.0/16")))
                .remoteCidr("fd00:1::/64").build();

        assertThat(o.remoteCidrs()).containsExactly(Cidr.parse("10.1.0.0/16"), Cidr.parse("fd00:1::/64"));
    }

    @Test
    void rejectsTheFirstBadValueNamingTheOption() {
        assertThatThrownBy(() -> CaptureOptions.builder().file(Path.of("c.pcap")).snaplen(10).bufferMb(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--snaplen 10: must be 64-262144");
        assertThatThrownBy(() -> CaptureOptions.builder().iface("eth0").loop(true).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--realtime and --loop need -r FILE");
        assertThatThrownBy(() -> CaptureOptions.builder().file(Path.of("c.pcap")).realtime(true).passes(3).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--passes needs --loop");
        assertThatThrownBy(() -> CaptureOptions.builder().file(Path.of("c.pcap")).realtime(true).loop(true).passes(0)
                .build()).isInstanceOf(IllegalArgumentException.class).hasMessage("--passes 0: must be at least 1");
        assertThatThrownBy(() -> CaptureOptions.builder().file(Path.of("c.pcap")).spoolMaxMb(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--spool-max-mb 0: must be at least 1");
    }

    @Test
    void rejectsNoSourceAndTwoSources() {
        assertThatThrownBy(() -> CaptureOptions.builder().build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("one of -i IFACE and -r FILE is needed, not both");
        assertThatThrownBy(() -> CaptureOptions.builder().iface("eth0").file(Path.of("c.pcap")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("one of -i IFACE and -r FILE is needed, not both");
    }

    @Test
    void takesTheLiveCapturesDefaultsAndRanges() {
        CaptureOptions o = CaptureOptions.builder().iface("eth0").build();
        assertThat(o.snaplen()).isEqualTo(LiveCaptureLimits.DEFAULT_SNAPLEN).isEqualTo(256);
        assertThat(o.bufferBytes()).isEqualTo(LiveCaptureLimits.DEFAULT_BUFFER_MB << 20).isEqualTo(64 << 20);
        assertThat(CaptureOptionsBuilder.SNAPLEN_RANGE).isEqualTo("64-262144");
        assertThat(CaptureOptionsBuilder.BUFFER_MB_RANGE).isEqualTo("1-2047");
        assertThat(CaptureOptions.builder().iface("eth0").snaplen(64).bufferMb(2047).build().bufferBytes())
                .isEqualTo(LiveCaptureLimits.MAX_BUFFER_BYTES);
        assertThatThrownBy(() -> CaptureOptions.builder().iface("eth0").bufferMb(2048).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--buffer-mb 2048: must be 1-2047");
    }

    @Test
    void takesTheEbpfBackendForALiveInterfaceWithJsonOrKafka() {
        CaptureOptions o = CaptureOptions.builder().iface("eth0").json("-").backend("ebpf").workers(4).build();

        assertThat(o.backend()).isEqualTo(Backend.EBPF);
        assertThat(o.workers()).isEqualTo(4);
        assertThat(o.describe()).endsWith(" workers=4 backend=ebpf");
        assertThat(CaptureOptions.builder().iface("eth0").build().backend()).isEqualTo(Backend.AUTO);
    }

    @Test
    void readsLivePacketsFromTheRingUnlessLibpcapIsAsked() {
        assertThat(CaptureOptions.builder().iface("eth0").build().captureApi()).isEqualTo(LiveReader.RING);
        CaptureOptions o = CaptureOptions.builder().iface("eth0").captureApi("libpcap").build();

        assertThat(o.captureApi()).isEqualTo(LiveReader.LIBPCAP);
        assertThat(o.describe()).endsWith(" workers=1 captureApi=libpcap");
        assertThatThrownBy(() -> CaptureOptions.builder().iface("eth0").captureApi("pcap").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--capture-api pcap: must be ring or libpcap");
    }

    @Test
    void rejectsAnUnknownBackendAndEbpfWithoutAnInterfaceOrWithTheTextReport() {
        assertThatThrownBy(() -> CaptureOptions.builder().iface("eth0").json("-").backend("xdp").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--backend xdp: must be pcap, ebpf or auto");
        assertThatThrownBy(() -> CaptureOptions.builder().file(Path.of("c.pcap")).json("-").backend("ebpf").build())
                .hasMessage("--backend ebpf needs -i IFACE (a capture file is read by the agent itself)");
        assertThatThrownBy(() -> CaptureOptions.builder().iface("eth0").backend("ebpf").build())
                .hasMessage("--backend ebpf gives flows, not packets: the text report needs --backend pcap; "
                        + "give --json or --bootstrap");
        assertThatThrownBy(() -> CaptureOptions.builder().iface("eth0").json("-").text(true).backend("ebpf").build())
                .hasMessage("--backend ebpf gives flows, not packets: the text report needs --backend pcap; "
                        + "give --json or --bootstrap");
    }
}
