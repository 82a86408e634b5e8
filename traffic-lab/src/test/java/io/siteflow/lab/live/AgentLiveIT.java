package io.siteflow.lab.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.siteflow.agent.app.AgentRunner;
import io.siteflow.agent.app.FileReplay;
import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.lab.NetnsLab;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole agent ({@code siteflow capture -i IFACE --json}) on a veth inside network namespaces the test
 * creates, next to tcpdump on the same interface: the agent's records, summed per IP pair, carry exactly the
 * packets and wire bytes of tcpdump's capture read back through the same pipeline (when tcpdump dropped
 * nothing), the kernel drop counters are reported, and a stop flushes every flow.
 */
class AgentLiveIT {
    @TempDir
    Path dir;

    @Test
    void recordsCarryExactlyThePacketsAndBytesTcpdumpCaptured() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (NetnsLab lab = NetnsLab.create().offloadsOff()) {
            LabTraffic traffic = LabTraffic.to(lab, lab.addressA());
            Tcpdump tcpdump = Tcpdump.start(lab, lab.nsA(), NetnsLab.IF_A, dir, "");
            Path json = dir.resolve("flows.jsonl");
            StringWriter err = new StringWriter();
            AgentRunner agent = new AgentRunner(options(json), new PrintWriter(new StringWriter(), true),
                    new PrintWriter(err, true));
            Future<Integer> exit = pool.submit(() -> lab.call(lab.nsA(), agent::run));
            try {
                await("capturing").atMost(Duration.ofSeconds(20)).until(() -> err.toString().contains("capturing on sfa0"));
                assertThat(traffic.tcp(3_000_000)).isEqualTo(3_000_000);
                traffic.udp(lab.addressB(), 500);
                byte[] marker = LabTraffic.newMarker("agent-end");
                traffic.marker(lab.addressB(), marker);
                await("tcpdump wrote the marker").atMost(Duration.ofSeconds(20))
                        .until(() -> tcpdump.packets().stream().anyMatch(p -> p.contains(marker)));
                int captured = tcpdump.packets().size();
                await("agent saw as many packets").atMost(Duration.ofSeconds(20))
                        .until(() -> agent.received() >= captured);
            } finally {
                agent.stop();
                traffic.close();
            }
            assertThat(exit.get(60, TimeUnit.SECONDS)).as(err.toString()).isZero();
            long tcpdumpDrops = tcpdump.stop();
            Assumptions.assumeTrue(tcpdumpDrops == 0, "tcpdump dropped " + tcpdumpDrops + " packets");

            Map<String, long[]> ours = totals(Files.readAllLines(json).stream().map(AgentLiveIT::parse).toList());
            Map<String, long[]> reference = new TreeMap<>();
            FileReplay.Result replay = FileReplay.run(dir.resolve("tcpdump.pcap"), "ref", FlowTableConfig.DEFAULTS,
                    collector(reference));
            assertThat(replay.complete()).isTrue();
            assertThat(ours.keySet()).isEqualTo(reference.keySet());
            ours.forEach((pair, c) -> assertThat(c).as(pair).containsExactly(reference.get(pair)));
            assertThat(ours.get(pair(lab.addressA(), lab.addressB()))[0]).isGreaterThan(2_000);
            assertThat(err.toString()).contains("sfa0: ").contains(" dropped by kernel, 0 dropped by interface, 0 dropped by the agent");
        } finally {
            pool.shutdownNow();
        }
    }

    private static CaptureOptions options(Path json) {
        return CaptureOptions.builder().iface(NetnsLab.IF_A).agent("live-it").json(json.toString())
                .spoolDir(Path.of("/nonexistent-spool")).spoolMaxMb(1).build();
    }

    private static FlowRecord parse(String line) {
        try {
            return FlowRecordJson.parse(line);
        } catch (Exception e) {
            throw new AssertionError(line, e);
        }
    }

    private static Map<String, long[]> totals(List<FlowRecord> records) {
        Map<String, long[]> m = new TreeMap<>();
        FlowSink sink = collector(m);
        records.forEach(sink::accept);
        return m;
    }

    private static FlowSink collector(Map<String, long[]> m) {
        return new FlowSink() {
            @Override
            public void accept(FlowRecord r) {
                long[] c = m.computeIfAbsent(pair(r.src(), r.dst()), k -> new long[2]);
                c[0] += r.totalPackets();
                c[1] += r.frameBytes() + r.rframeBytes();
            }

            @Override
            public void close() {
            }
        };
    }

    private static String pair(String a, String b) {
        return a.compareTo(b) <= 0 ? a + " " + b : b + " " + a;
    }
}
