package io.siteflow.lab.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.siteflow.agent.capture.CaptureFailure;
import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.capture.live.BpfFilters;
import io.siteflow.agent.capture.live.LiveCapture;
import io.siteflow.lab.NetnsLab;
import io.siteflow.model.Cidr;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNetworkInterface;
import org.pcap4j.core.Pcaps;

/**
 * Live capture through real libpcap on a veth pair between two network namespaces the test creates
 * ({@link NetnsLab}). The capture handle is opened by a thread that has entered namespace A; traffic
 * runs from B to A over the test's own sockets. Needs root and the Debian packages iproute2, ethtool,
 * tcpdump (libpcap0.8 comes with it) and util-linux (setpriv).
 */
class LiveCaptureIT {
    private static final int LINKTYPE_ETHERNET = 1;

    @TempDir
    Path dir;

    @Test
    void deliversEveryPacketAndWireByteThatTcpdumpCaptures() throws Exception {
        try (NetnsLab lab = NetnsLab.create().offloadsOff()) {
            LabTraffic traffic = LabTraffic.to(lab, lab.addressA());
            Tcpdump tcpdump = Tcpdump.start(lab, lab.nsA(), NetnsLab.IF_A, dir, "");
            long startNanos = System.currentTimeMillis() * 1_000_000L;
            try (CaptureRun live = CaptureRun.start(openInA(lab, LiveCapture.builder(NetnsLab.IF_A)))) {
                assertThat(traffic.tcp(8_000_000)).isEqualTo(8_000_000);
                traffic.udp(lab.addressB(), 2_000);
                byte[] marker = LabTraffic.newMarker("end");
                traffic.marker(lab.addressB(), marker);
                live.awaitPacketWith(marker);
                awaitTcpdumpWrote(tcpdump, marker);

                List<CapturedPacket> seen = live.stop();
                long tcpdumpDrops = tcpdump.stop();
                List<CapturedPacket> reference = tcpdump.packets();
                Assumptions.assumeTrue(tcpdumpDrops == 0, "tcpdump dropped " + tcpdumpDrops + " packets");

                assertThat(seen).hasSize(reference.size());
                assertThat(wireBytes(seen)).isEqualTo(wireBytes(reference));
                assertThat(seen).map(CapturedPacket::content)
                        .containsExactlyInAnyOrderElementsOf(reference.stream().map(CapturedPacket::content).toList());
                assertSameTimesWithinAMillisecond(seen, reference);
                assertThat(seen).allSatisfy(p -> {
                    assertThat(p.linkType()).isEqualTo(LINKTYPE_ETHERNET);
                    assertThat(p.bytes().length).isLessThanOrEqualTo(256);
                    assertThat(p.wireLength()).isLessThanOrEqualTo(1514);
                    assertThat(p.timestampNanos()).isGreaterThanOrEqualTo(startNanos);
                });
                assertThat(live.capture().stats()).isEqualTo(new CaptureStats(seen.size(), 0, 0));
            } finally {
                traffic.close();
            }
        }
    }

    @Test
    void deliversOnlyIpTrafficOfTheRemoteCidrs() throws Exception {
        try (NetnsLab lab = NetnsLab.create().offloadsOff().secondSubnet()) {
            String inside = "10.99." + lab.subnet() + ".0/24";
            String filter = BpfFilters.forRemoteCidrs(List.of(Cidr.parse(inside)));
            LabTraffic toInside = LabTraffic.to(lab, lab.addressA());
            LabTraffic toOutside = LabTraffic.to(lab, "10.98." + lab.subnet() + ".1");
            try (CaptureRun live = CaptureRun.start(openInA(lab, LiveCapture.builder(NetnsLab.IF_A).bpfFilter(filter)))) {
                toOutside.udp("10.98." + lab.subnet() + ".2", 300);
                toInside.udp(lab.addressB(), 200);
                byte[] marker = LabTraffic.newMarker("filter");
                toInside.marker(lab.addressB(), marker);
                live.awaitPacketWith(marker);

                List<CapturedPacket> seen = live.stop();
                assertThat(seen).hasSize(201);
                assertThat(seen).allSatisfy(p -> {
                    assertThat(p.ipv4Source()).isEqualTo(lab.addressB());
                    assertThat(p.ipv4Destination()).isEqualTo(lab.addressA());
                });
            } finally {
                toInside.close();
                toOutside.close();
            }
        }
    }

    @Test
    void deliversTaggedAndUntaggedTrafficOfTheRemoteCidrsWithTheTag() throws Exception {
        try (NetnsLab lab = NetnsLab.create().offloadsOff()) {
            String inside = "10.97." + lab.subnet();
            String outside = "10.96." + lab.subnet();
            String filter = BpfFilters.forRemoteCidrs(List.of(Cidr.parse(inside + ".0/24")));
            // this kernel has no 802.1Q module: B injects tagged frames on its veth end with libpcap
            try (PcapHandle inject = lab.call(lab.nsB(), () -> new PcapHandle.Builder(NetnsLab.IF_B).build());
                 CaptureRun live = CaptureRun.start(openInA(lab, LiveCapture.builder(NetnsLab.IF_A).bpfFilter(filter)))) {
                for (int i = 0; i < 30; i++) {
                    inject.sendPacket(EthernetFrames.udp(100, outside + ".2", outside + ".1", new byte[i]));
                    inject.sendPacket(EthernetFrames.udp(0, outside + ".2", outside + ".1", new byte[i]));
                    inject.sendPacket(EthernetFrames.udp(100, inside + ".2", inside + ".1", new byte[i]));
                    inject.sendPacket(EthernetFrames.udp(0, inside + ".2", inside + ".1", new byte[i]));
                }
                byte[] marker = LabTraffic.newMarker("vlan");
                inject.sendPacket(EthernetFrames.udp(100, inside + ".2", inside + ".1", marker));
                live.awaitPacketWith(marker);

                List<CapturedPacket> seen = live.stop();
                assertThat(seen).hasSize(61);
                // the kernel takes the tag out of the data before the filter; libpcap puts it back
                assertThat(seen.stream().filter(EthernetFrames::hasVlan100)).hasSize(31);
                assertThat(seen).allSatisfy(p -> assertThat(EthernetFrames.ipv4Addresses(p))
                        .isEqualTo(inside + ".2>" + inside + ".1"));
            }
        }
    }

    @Test
    void stopReturnsPromptlyOnAnIdleInterface() throws Exception {
        try (NetnsLab lab = NetnsLab.create();
             CaptureRun live = CaptureRun.start(openInA(lab, LiveCapture.builder(NetnsLab.IF_A).timeoutMillis(1000)))) {
            await("capture thread blocked in pcap_next_ex").atMost(Duration.ofSeconds(10))
                    .until(() -> Arrays.stream(live.thread().getStackTrace())
                            .anyMatch(f -> f.getMethodName().equals("pcap_next_ex")));
            long t0 = System.nanoTime();
            assertThat(live.stop()).isEmpty();
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(1));
            assertThat(live.capture().stats()).isEqualTo(new CaptureStats(0, 0, 0));
        }
    }

    @Test
    void runReturnsAtOnceWhenStoppedBeforeItStarts() throws Exception {
        try (NetnsLab lab = NetnsLab.create(); LiveCapture capture = openInA(lab, LiveCapture.builder(NetnsLab.IF_A))) {
            capture.stop();
            CaptureRun live = CaptureRun.start(capture);
            live.done().get(5, TimeUnit.SECONDS);
            assertThat(live.packets()).isEmpty();
        }
    }

    @Test
    void failsNamingTheInterfaceWhenItDisappearsWhileCapturing() throws Exception {
        try (NetnsLab lab = NetnsLab.create();
             CaptureRun live = CaptureRun.start(openInA(lab, LiveCapture.builder(NetnsLab.IF_A)))) {
            lab.exec(lab.nsA(), "ip", "link", "del", NetnsLab.IF_A);
            await().atMost(Duration.ofSeconds(10)).until(() -> live.done().isDone());
            assertThatThrownBy(() -> live.done().get()).cause()
                    .isInstanceOf(CaptureFailure.class)
                    .hasMessage("sfa0: capture failed: The interface disappeared");
        }
    }

    @Test
    void reportsKernelDropsWhenTheHandlerFallsBehind() throws Exception {
        try (NetnsLab lab = NetnsLab.create().offloadsOff()) {
            LabTraffic traffic = LabTraffic.to(lab, lab.addressA());
            Tcpdump tcpdump = Tcpdump.start(lab, lab.nsA(), NetnsLab.IF_A, dir, "udp");
            CountDownLatch sent = new CountDownLatch(1);
            LiveCapture.Builder small = LiveCapture.builder(NetnsLab.IF_A).bufferBytes(65_536).bpfFilter("udp");
            try (CaptureRun live = CaptureRun.start(openInA(lab, small), (ts, lt, d, o, c, w) -> awaitQuietly(sent))) {
                traffic.udp(lab.addressB(), 5_000);
                sent.countDown();
                // while the handler catches up the full ring drops everything: probe until it takes packets again
                byte[] drained = LabTraffic.newMarker("drained");
                await("capture drained").pollInterval(Duration.ofMillis(100)).atMost(Duration.ofSeconds(20)).until(() -> {
                    traffic.marker(lab.addressB(), drained);
                    return live.packets().stream().anyMatch(p -> p.contains(drained));
                });
                byte[] marker = LabTraffic.newMarker("drops");
                traffic.marker(lab.addressB(), marker);
                live.awaitPacketWith(marker);
                awaitTcpdumpWrote(tcpdump, marker);

                List<CapturedPacket> seen = live.stop();
                long tcpdumpDrops = tcpdump.stop();
                Assumptions.assumeTrue(tcpdumpDrops == 0, "tcpdump dropped " + tcpdumpDrops + " packets");
                CaptureStats stats = live.capture().stats();
                assertThat(stats.received()).isEqualTo(seen.size());
                assertThat(stats.droppedKernel()).isPositive();
                assertThat(stats.received() + stats.droppedKernel()).isEqualTo(tcpdump.packets().size());
            } finally {
                traffic.close();
            }
        }
    }

    @Test
    void rethrowsWhatTheHandlerThrowsAndStops() throws Exception {
        try (NetnsLab lab = NetnsLab.create()) {
            LabTraffic traffic = LabTraffic.to(lab, lab.addressA());
            IllegalStateException boom = new IllegalStateException("handler failed");
            try (CaptureRun live = CaptureRun.start(openInA(lab, LiveCapture.builder(NetnsLab.IF_A)),
                    (ts, lt, d, o, c, w) -> { throw boom; })) {
                traffic.udp(lab.addressB(), 3);
                await().atMost(Duration.ofSeconds(10)).until(() -> live.done().isDone());
                assertThatThrownBy(() -> live.done().get()).hasCause(boom);
                assertThat(live.capture().stats().received()).isEqualTo(1);
            } finally {
                traffic.close();
            }
        }
    }

    @Test
    void failsListingTheInterfacesWhenTheInterfaceDoesNotExist() throws Exception {
        try (NetnsLab lab = NetnsLab.create()) {
            List<String> names = lab.call(lab.nsA(),
                    () -> Pcaps.findAllDevs().stream().map(PcapNetworkInterface::getName).toList());
            assertThat(names).contains(NetnsLab.IF_A, "lo");
            assertThatThrownBy(() -> openInA(lab, LiveCapture.builder("nosuch0")))
                    .isInstanceOf(CaptureFailure.class)
                    .hasMessage("no such interface: nosuch0 (interfaces: " + String.join(", ", names) + ")");
        }
    }

    @Test
    void failsNamingTheFilterWhenItDoesNotCompile() throws Exception {
        try (NetnsLab lab = NetnsLab.create()) {
            assertThatThrownBy(() -> openInA(lab, LiveCapture.builder(NetnsLab.IF_A).bpfFilter("net 10.1.0.0/33")))
                    .isInstanceOf(CaptureFailure.class)
                    .hasMessage("sfa0: bad BPF filter \"net 10.1.0.0/33\": mask length must be <= 32");
        }
    }

    @Test
    void failsNamingTheMissingCapabilityWithoutCapNetRaw() throws Exception {
        try (NetnsLab lab = NetnsLab.create()) {
            String java = Path.of(ProcessHandle.current().info().command().orElseThrow()).toRealPath().toString();
            String out = lab.exec(lab.nsA(), "setpriv", "--bounding-set=-net_raw", "--", java,
                    "-cp", System.getProperty("java.class.path"), OpenProbe.class.getName(), NetnsLab.IF_A);
            assertThat(out.lines().filter(l -> l.startsWith(NetnsLab.IF_A + ":") || l.startsWith("opened")))
                    .containsExactly("sfa0: permission denied: capturing needs CAP_NET_RAW (run as root or grant "
                            + "the capability: setcap cap_net_raw,cap_net_admin+eip " + java + ")");
        }
    }

    private static LiveCapture openInA(NetnsLab lab, LiveCapture.Builder builder) throws Exception {
        return lab.call(lab.nsA(), builder::build);
    }

    private static void awaitTcpdumpWrote(Tcpdump tcpdump, byte[] marker) {
        await("tcpdump writes the marker").atMost(Duration.ofSeconds(20))
                .until(() -> tcpdump.packets().stream().anyMatch(p -> p.contains(marker)));
    }

    /**
     * Each packet socket takes its own timestamp when the kernel does not stamp the packet once for all
     * (received veth packets): tcpdump's and ours differ by a few µs, and the order of packets tapped on two
     * CPUs at once may differ too. So packets are paired by content and their times compared.
     */
    private static void assertSameTimesWithinAMillisecond(List<CapturedPacket> seen, List<CapturedPacket> reference) {
        Comparator<CapturedPacket> byContent = Comparator.comparing(CapturedPacket::content)
                .thenComparingLong(CapturedPacket::timestampNanos);
        List<CapturedPacket> a = seen.stream().sorted(byContent).toList();
        List<CapturedPacket> b = reference.stream().sorted(byContent).toList();
        for (int i = 0; i < a.size(); i++) {
            assertThat(a.get(i).timestampNanos()).isCloseTo(b.get(i).timestampNanos(), within(1_000_000L));
        }
    }

    private static long wireBytes(List<CapturedPacket> packets) {
        return packets.stream().mapToLong(CapturedPacket::wireLength).sum();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
