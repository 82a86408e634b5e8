package io.siteflow.lab.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.siteflow.agent.app.AgentRunner;
import io.siteflow.agent.capture.CaptureFailure;
import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.capture.PacketHandler;
import io.siteflow.agent.capture.live.BpfFilters;
import io.siteflow.agent.capture.live.LiveCapture;
import io.siteflow.agent.capture.live.RingCapture;
import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.lab.NetnsLab;
import io.siteflow.model.Cidr;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNetworkInterface;
import org.pcap4j.core.Pcaps;

/**
 * The TPACKET_V3 ring read from Java ({@link RingCapture}, {@code --capture-api ring}) against libpcap
 * ({@link LiveCapture}, {@code pcap_next_ex}) and tcpdump, all three on the same veth in network namespaces the test
 * creates ({@link NetnsLab}), during the same traffic: the same packets byte for byte (VLAN tags put back, lengths cut
 * at the snaplen), the same flow records from the agent, kernel drops counted exactly, the same failures. Needs root
 * and the Debian packages iproute2, ethtool, tcpdump (libpcap0.8 comes with it).
 */
class RingCaptureIT {
    private static final int LINKTYPE_ETHERNET = 1;

    @TempDir
    Path dir;

    @Test
    void deliversTheSamePacketsAsLibpcapAndTcpdumpOnTheSameTraffic() throws Exception {
        try (NetnsLab lab = NetnsLab.create().offloadsOff()) {
            LabTraffic traffic = LabTraffic.to(lab, lab.addressA());
            Tcpdump tcpdump = Tcpdump.start(lab, lab.nsA(), NetnsLab.IF_A, dir, "");
            long startNanos = System.currentTimeMillis() * 1_000_000L;
            try (CaptureRun ring = CaptureRun.start(lab.call(lab.nsA(), LiveCapture.builder(NetnsLab.IF_A)::buildRing));
                 CaptureRun pcap = CaptureRun.start(lab.call(lab.nsA(), LiveCapture.builder(NetnsLab.IF_A)::build))) {
                assertThat(traffic.tcp(8_000_000)).isEqualTo(8_000_000);
                traffic.udp(lab.addressB(), 2_000);
                byte[] marker = LabTraffic.newMarker("ring-end");
                traffic.marker(lab.addressB(), marker);
                ring.awaitPacketWith(marker);
                pcap.awaitPacketWith(marker);
                awaitTcpdumpWrote(tcpdump, marker);

                List<CapturedPacket> seen = ring.stop();
                List<CapturedPacket> old = pcap.stop();
                long tcpdumpDrops = tcpdump.stop();
                List<CapturedPacket> reference = tcpdump.packets();
                Assumptions.assumeTrue(tcpdumpDrops == 0, "tcpdump dropped " + tcpdumpDrops + " packets");

                assertThat(seen).hasSize(reference.size()).hasSize(old.size());
                assertThat(contents(seen)).isEqualTo(contents(reference)).isEqualTo(contents(old));
                assertThat(wireBytes(seen)).isEqualTo(wireBytes(reference)).isEqualTo(wireBytes(old));
                assertSameTimesWithinAMillisecond(seen, reference);
                assertThat(seen).allSatisfy(p -> {
                    assertThat(p.linkType()).isEqualTo(LINKTYPE_ETHERNET);
                    assertThat(p.bytes().length).isLessThanOrEqualTo(256);
                    assertThat(p.timestampNanos()).isGreaterThanOrEqualTo(startNanos);
                });
                assertThat(ring.capture().stats()).isEqualTo(new CaptureStats(seen.size(), 0, 0));
            } finally {
                traffic.close();
            }
        }
    }

    @Test
    void putsVlanTagsBackAndCutsAtTheSnaplenAsLibpcapDoes() throws Exception {
        try (NetnsLab lab = NetnsLab.create().offloadsOff()) {
            String inside = "10.97." + lab.subnet();
            String outside = "10.96." + lab.subnet();
            String filter = BpfFilters.forRemoteCidrs(List.of(Cidr.parse(inside + ".0/24")));
            LiveCapture.Builder builder = LiveCapture.builder(NetnsLab.IF_A).bpfFilter(filter).snaplen(96);
            // this kernel has no 802.1Q module: B injects tagged frames on its veth end with libpcap
            try (PcapHandle inject = lab.call(lab.nsB(), () -> new PcapHandle.Builder(NetnsLab.IF_B).build());
                 CaptureRun ring = CaptureRun.start(lab.call(lab.nsA(), builder::buildRing));
                 CaptureRun pcap = CaptureRun.start(lab.call(lab.nsA(), builder::build))) {
                for (int i = 0; i < 30; i++) {
                    byte[] payload = new byte[i * 10];
                    Arrays.fill(payload, (byte) i);
                    inject.sendPacket(EthernetFrames.udp(100, outside + ".2", outside + ".1", payload));
                    inject.sendPacket(EthernetFrames.udp(0, outside + ".2", outside + ".1", payload));
                    inject.sendPacket(EthernetFrames.udp(100, inside + ".2", inside + ".1", payload));
                    inject.sendPacket(EthernetFrames.udp(0, inside + ".2", inside + ".1", payload));
                }
                byte[] marker = LabTraffic.newMarker("v");
                inject.sendPacket(EthernetFrames.udp(100, inside + ".2", inside + ".1", marker));
                ring.awaitPacketWith(marker);
                pcap.awaitPacketWith(marker);

                List<CapturedPacket> seen = ring.stop();
                List<CapturedPacket> old = pcap.stop();
                assertThat(seen).hasSize(61);
                assertThat(seen.stream().filter(EthernetFrames::hasVlan100)).hasSize(31);
                assertThat(seen).allSatisfy(p -> assertThat(EthernetFrames.ipv4Addresses(p))
                        .isEqualTo(inside + ".2>" + inside + ".1"));
                // a tagged frame of 46 + 290 bytes: 96 captured (the marker fits), 336 on the wire with its tag
                assertThat(seen).anySatisfy(p -> {
                    assertThat(p.bytes()).hasSize(96);
                    assertThat(p.wireLength()).isEqualTo(14 + 4 + 20 + 8 + 290);
                });
                assertThat(seen.stream().map(p -> p.content() + " " + p.wireLength()).sorted().toList())
                        .isEqualTo(old.stream().map(p -> p.content() + " " + p.wireLength()).sorted().toList());
            }
        }
    }

    @Test
    void countsKernelDropsExactlyWhenTheHandlerFallsBehind() throws Exception {
        try (NetnsLab lab = NetnsLab.create().offloadsOff()) {
            LabTraffic traffic = LabTraffic.to(lab, lab.addressA());
            Tcpdump tcpdump = Tcpdump.start(lab, lab.nsA(), NetnsLab.IF_A, dir, "udp");
            CountDownLatch sent = new CountDownLatch(1);
            LiveCapture.Builder small = LiveCapture.builder(NetnsLab.IF_A).bufferBytes(65_536).bpfFilter("udp");
            try (CaptureRun ring = CaptureRun.start(lab.call(lab.nsA(), small::buildRing),
                    (ts, lt, d, o, c, w) -> awaitQuietly(sent))) {
                traffic.udp(lab.addressB(), 5_000);
                sent.countDown();
                byte[] drained = LabTraffic.newMarker("drained");
                await("ring drained").pollInterval(Duration.ofMillis(100)).atMost(Duration.ofSeconds(20)).until(() -> {
                    traffic.marker(lab.addressB(), drained);
                    return ring.packets().stream().anyMatch(p -> p.contains(drained));
                });
                byte[] marker = LabTraffic.newMarker("drops");
                traffic.marker(lab.addressB(), marker);
                ring.awaitPacketWith(marker);
                awaitTcpdumpWrote(tcpdump, marker);

                List<CapturedPacket> seen = ring.stop();
                long tcpdumpDrops = tcpdump.stop();
                Assumptions.assumeTrue(tcpdumpDrops == 0, "tcpdump dropped " + tcpdumpDrops + " packets");
                CaptureStats stats = ring.capture().stats();
                assertThat(stats.received()).isEqualTo(seen.size());
                assertThat(stats.droppedKernel()).isPositive();
                assertThat(stats.received() + stats.droppedKernel()).isEqualTo(tcpdump.packets().size());
            } finally {
                traffic.close();
            }
        }
    }

    @Test
    void tellsTheHandlerTheTimeWhileIdleAndStopsPromptly() throws Exception {
        AtomicInteger idleTicks = new AtomicInteger();
        PacketHandler idle = new PacketHandler() {
            @Override
            public void onPacket(long ts, int lt, byte[] data, int off, int cap, int wire) {
            }

            @Override
            public void onIdle(long wallClockNanos) {
                assertThat(wallClockNanos).isCloseTo(System.currentTimeMillis() * 1_000_000L, within(5_000_000_000L));
                idleTicks.incrementAndGet();
            }
        };
        try (NetnsLab lab = NetnsLab.create();
             CaptureRun ring = CaptureRun.start(lab.call(lab.nsA(),
                     LiveCapture.builder(NetnsLab.IF_A).timeoutMillis(100)::buildRing), idle)) {
            await("two idle ticks").atMost(Duration.ofSeconds(10)).until(() -> idleTicks.get() >= 2);
            long t0 = System.nanoTime();
            assertThat(ring.stop()).isEmpty();
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(1));
            assertThat(ring.capture().stats()).isEqualTo(new CaptureStats(0, 0, 0));
        }
    }

    @Test
    void failsNamingTheInterfaceWhenItDisappearsWhileCapturing() throws Exception {
        try (NetnsLab lab = NetnsLab.create();
             CaptureRun ring = CaptureRun.start(lab.call(lab.nsA(), LiveCapture.builder(NetnsLab.IF_A)::buildRing))) {
            lab.exec(lab.nsA(), "ip", "link", "del", NetnsLab.IF_A);
            await().atMost(Duration.ofSeconds(10)).until(() -> ring.done().isDone());
            assertThatThrownBy(() -> ring.done().get()).cause()
                    .isInstanceOf(CaptureFailure.class)
                    .hasMessage("sfa0: capture failed: The interface disappeared");
        }
    }

    @Test
    void failsAsLibpcapDoesOnAnUnknownInterfaceOrABadFilter() throws Exception {
        try (NetnsLab lab = NetnsLab.create()) {
            List<String> names = lab.call(lab.nsA(),
                    () -> Pcaps.findAllDevs().stream().map(PcapNetworkInterface::getName).toList());
            assertThatThrownBy(() -> lab.call(lab.nsA(), LiveCapture.builder("nosuch0")::buildRing))
                    .isInstanceOf(CaptureFailure.class)
                    .hasMessage("no such interface: nosuch0 (interfaces: " + String.join(", ", names) + ")");
            assertThatThrownBy(() -> lab.call(lab.nsA(),
                    LiveCapture.builder(NetnsLab.IF_A).bpfFilter("net 10.1.0.0/33")::buildRing))
                    .isInstanceOf(CaptureFailure.class)
                    .hasMessage("sfa0: bad BPF filter \"net 10.1.0.0/33\": mask length must be <= 32");
        }
    }

    @Test
    void agentRecordsFromTheRingEqualLibpcapsFlowByFlow() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (NetnsLab lab = NetnsLab.create().offloadsOff()) {
            LabTraffic traffic = LabTraffic.to(lab, lab.addressA());
            Tcpdump tcpdump = Tcpdump.start(lab, lab.nsA(), NetnsLab.IF_A, dir, "");
            Agent ring = Agent.start(lab, pool, dir.resolve("ring.jsonl"), "ring");
            Agent pcap = Agent.start(lab, pool, dir.resolve("libpcap.jsonl"), "libpcap");
            try (PcapHandle inject = lab.call(lab.nsB(), () -> new PcapHandle.Builder(NetnsLab.IF_B).build())) {
                ring.awaitCapturing();
                pcap.awaitCapturing();
                for (int i = 0; i < 6; i++) {
                    assertThat(traffic.tcp(50_000 + 7_000L * i)).isEqualTo(50_000 + 7_000L * i);
                }
                udpFlows(lab);
                String tagged = "10.95." + lab.subnet();
                for (int i = 0; i < 40; i++) {
                    inject.sendPacket(EthernetFrames.udp(100, tagged + ".2", tagged + "." + (10 + i % 4), new byte[i]));
                }
                byte[] marker = LabTraffic.newMarker("records-end");
                traffic.marker(lab.addressB(), marker);
                await("tcpdump wrote the marker").atMost(Duration.ofSeconds(20))
                        .until(() -> tcpdump.packets().stream().anyMatch(p -> p.contains(marker)));
                int captured = tcpdump.packets().size();
                await("both agents saw every packet").atMost(Duration.ofSeconds(20))
                        .until(() -> ring.runner.received() >= captured && pcap.runner.received() >= captured);
            } finally {
                ring.runner.stop();
                pcap.runner.stop();
                traffic.close();
                tcpdump.stop();
            }
            assertThat(ring.exit.get(60, TimeUnit.SECONDS)).as(ring.err.toString()).isZero();
            assertThat(pcap.exit.get(60, TimeUnit.SECONDS)).as(pcap.err.toString()).isZero();

            Map<String, List<Object>> byFlow = byFlow(ring.records());
            assertThat(byFlow).isEqualTo(byFlow(pcap.records()));
            assertThat(byFlow.keySet().stream().filter(k -> k.contains("10.95."))).hasSize(4);
            assertThat(byFlow.keySet().stream().filter(k -> k.startsWith("6 "))).hasSize(6);
            assertThat(ring.err.toString()).contains("0 dropped by kernel, 0 dropped by interface, 0 dropped by the agent");
        } finally {
            pool.shutdownNow();
        }
    }

    /** 100 UDP flows from B to A, each from its own source port, 1 to 3 datagrams each. */
    private static void udpFlows(NetnsLab lab) throws Exception {
        DatagramSocket sink = lab.call(lab.nsA(), () -> new DatagramSocket(new InetSocketAddress(lab.addressA(), 0)));
        try (sink) {
            InetSocketAddress to = new InetSocketAddress(lab.addressA(), sink.getLocalPort());
            for (int i = 0; i < 100; i++) {
                try (DatagramSocket s = lab.call(lab.nsB(),
                        () -> new DatagramSocket(new InetSocketAddress(lab.addressB(), 0)))) {
                    for (int k = 0; k <= i % 3; k++) {
                        s.send(new DatagramPacket(new byte[100 + i], 100 + i, to));
                    }
                }
            }
        }
    }

    /** Per flow: packets, bytes, frame bytes and TCP flags of each direction summed, and the L7 protocol. */
    private static Map<String, List<Object>> byFlow(List<FlowRecord> records) {
        Map<String, long[]> sums = new TreeMap<>();
        Map<String, String> l7 = new TreeMap<>();
        for (FlowRecord r : records) {
            String flow = r.proto() + " " + r.src() + ":" + r.srcPort() + " " + r.dst() + ":" + r.dstPort();
            long[] s = sums.computeIfAbsent(flow, k -> new long[8]);
            s[0] += r.packets();
            s[1] += r.rpackets();
            s[2] += r.bytes();
            s[3] += r.rbytes();
            s[4] += r.frameBytes();
            s[5] += r.rframeBytes();
            s[6] |= r.tcpFlags();
            s[7] |= r.rtcpFlags();
            l7.merge(flow, String.valueOf(r.l7()), (a, b) -> a.equals("null") ? b : a);
        }
        Map<String, List<Object>> out = new TreeMap<>();
        sums.forEach((k, v) -> {
            List<Object> row = new ArrayList<>(Arrays.stream(v).boxed().toList());
            row.add(l7.get(k));
            out.put(k, row);
        });
        return out;
    }

    private static List<String> contents(List<CapturedPacket> packets) {
        return packets.stream().map(CapturedPacket::content).sorted().toList();
    }

    private static long wireBytes(List<CapturedPacket> packets) {
        return packets.stream().mapToLong(CapturedPacket::wireLength).sum();
    }

    private static void awaitTcpdumpWrote(Tcpdump tcpdump, byte[] marker) {
        await("tcpdump writes the marker").atMost(Duration.ofSeconds(20))
                .until(() -> tcpdump.packets().stream().anyMatch(p -> p.contains(marker)));
    }

    /** Packets paired by content (each socket stamps its own time: a few µs apart), times within 1 ms. */
    private static void assertSameTimesWithinAMillisecond(List<CapturedPacket> seen, List<CapturedPacket> reference) {
        Comparator<CapturedPacket> byContent = Comparator.comparing(CapturedPacket::content)
                .thenComparingLong(CapturedPacket::timestampNanos);
        List<CapturedPacket> a = seen.stream().sorted(byContent).toList();
        List<CapturedPacket> b = reference.stream().sorted(byContent).toList();
        for (int i = 0; i < a.size(); i++) {
            assertThat(a.get(i).timestampNanos()).isCloseTo(b.get(i).timestampNanos(), within(1_000_000L));
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One agent run on the lab's interface A with the given {@code --capture-api}, writing JSON lines. */
    private record Agent(AgentRunner runner, StringWriter err, Future<Integer> exit, Path json) {
        static Agent start(NetnsLab lab, ExecutorService pool, Path json, String captureApi) {
            CaptureOptions o = CaptureOptions.builder().iface(NetnsLab.IF_A).agent("ring-it").backend("pcap")
                    .captureApi(captureApi)
                    .json(json.toString()).spoolDir(Path.of("/nonexistent-spool")).spoolMaxMb(1).build();
            StringWriter err = new StringWriter();
            AgentRunner runner = new AgentRunner(o, new PrintWriter(new StringWriter(), true),
                    new PrintWriter(err, true));
            return new Agent(runner, err, pool.submit(() -> lab.call(lab.nsA(), runner::run)), json);
        }

        void awaitCapturing() {
            await("capturing").atMost(Duration.ofSeconds(20)).until(() -> err.toString().contains("capturing on sfa0"));
        }

        List<FlowRecord> records() throws Exception {
            List<FlowRecord> out = new ArrayList<>();
            for (String line : Files.readAllLines(json)) {
                out.add(FlowRecordJson.parse(line));
            }
            return out;
        }
    }
}
