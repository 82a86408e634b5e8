package io.siteflow.agent.readback;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.FlowRecord;
import io.siteflow.synth.CapturePoint;
import io.siteflow.synth.ConnectionTruth;
import io.siteflow.synth.ScenarioTruth;
import io.siteflow.synth.StretchedClusterScenario;
import io.siteflow.synth.TrafficTotal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stretched-cluster scenario read back through the agent: the flow records add up to the scenario's truth. */
class StretchedClusterReadBackTest {
    private static final String WLS3 = "10.2.0.20";
    private static final String WLS4 = "10.2.0.21";

    @TempDir
    Path dir;

    private static StretchedClusterScenario.Builder scenario() {
        return StretchedClusterScenario.builder().duration(Duration.ofSeconds(30));
    }

    /** Sums bytes+rbytes (index 0) and packets+rpackets (index 1) per remote address of {@code server}. */
    private static Map<String, long[]> byRemote(List<FlowRecord> records, String server) {
        Map<String, long[]> m = new TreeMap<>();
        for (FlowRecord r : records) {
            String remote = r.src().equals(server) ? r.dst() : r.dst().equals(server) ? r.src() : null;
            if (remote != null) {
                long[] s = m.computeIfAbsent(remote, k -> new long[2]);
                s[0] += r.bytes() + r.rbytes();
                s[1] += r.packets() + r.rpackets();
            }
        }
        return m;
    }

    private static Map<String, Long> truthPackets(ScenarioTruth truth, String server) {
        return truth.totals().stream().filter(t -> t.server().equals(server))
                .collect(Collectors.groupingBy(TrafficTotal::remote, TreeMap::new, Collectors.summingLong(TrafficTotal::packets)));
    }

    private static void assertSumsMatch(List<FlowRecord> records, ScenarioTruth truth, String server) {
        Map<String, long[]> seen = byRemote(records, server);
        assertThat(seen.keySet()).isEqualTo(truth.bytesByRemote(server).keySet());
        seen.forEach((remote, s) -> {
            assertThat(s[0]).as("bytes %s <-> %s", server, remote).isEqualTo(truth.bytesByRemote(server).get(remote));
            assertThat(s[1]).as("packets %s <-> %s", server, remote).isEqualTo(truthPackets(truth, server).get(remote));
        });
    }

    @Test
    void flowRecordsAddUpToTheTruthPerServerAndRemoteAddressAtTheHost() throws Exception {
        Path pcap = dir.resolve("wls3.pcap");
        ScenarioTruth truth = scenario().capturePoint(CapturePoint.host("wls3")).build().write(pcap);

        List<FlowRecord> records = ReadBack.records(pcap);

        assertThat(truth.bytesByRemote(WLS3)).containsKeys("10.1.0.10", "10.1.0.20", "10.1.0.21", WLS4,
                "10.1.0.5", "10.1.0.2");
        assertSumsMatch(records, truth, WLS3);
        assertThat(records.stream().mapToLong(FlowRecord::totalBytes).sum()).isEqualTo(truth.ipBytes());
        assertThat(truth.dbConnections()).containsExactly(Map.entry(WLS3, 20));
    }

    @Test
    void dbSharesComeOutAtTheTargetsSeenFromTheRegionEdge() throws Exception {
        Path pcap = dir.resolve("edge.pcap");
        ScenarioTruth truth = scenario().capturePoint(CapturePoint.regionEdge("region2", 75_000)).build().write(pcap);

        List<FlowRecord> records = ReadBack.records(pcap);

        assertThat(truth.dbShare(WLS3)).isBetween(0.93, 0.931);
        assertThat(truth.dbShare(WLS4)).isBetween(0.80, 0.802);
        assertThat(truth.crossSiteBytes(WLS3)).isEqualTo(truth.bytesByRemote(WLS3).values().stream().mapToLong(Long::longValue).sum());
        assertThat(truth.bytesByRemote(WLS3)).doesNotContainKey(WLS4);
        assertThat(truth.dbConnections()).containsExactly(Map.entry(WLS3, 20), Map.entry(WLS4, 20));
        assertSumsMatch(records, truth, WLS3);
        assertSumsMatch(records, truth, WLS4);
    }

    @Test
    void handshakeRttOfEveryConnectionIsThePathRttExactly() throws Exception {
        Path pcap = dir.resolve("wls3.pcap");
        ScenarioTruth truth = scenario().build().write(pcap);

        Map<String, Long> truthRtt = new HashMap<>();
        for (ConnectionTruth c : truth.connections()) {
            if (c.rttMicros() >= 0) {
                truthRtt.put(c.key(), c.rttMicros());
                boolean cross = !truth.region(c.client()).equals(truth.region(c.server()));
                assertThat(c.rttMicros()).as(c.key()).isEqualTo(cross ? 6500 : 300);
            }
        }
        Map<String, Long> seenRtt = new HashMap<>();
        for (FlowRecord r : ReadBack.records(pcap)) {
            if (r.rttMicros() != null) {
                String key = truthRtt.containsKey(ReadBack.key(r, true)) ? ReadBack.key(r, true) : ReadBack.key(r, false);
                assertThat(seenRtt.put(key, r.rttMicros())).as("second RTT for %s", key).isNull();
            }
        }
        // 20 pooled DB connections, T3 and TMB to wls1, wls2 and wls4, JMS to wls1 and wls2, the admin port
        assertThat(truthRtt).hasSizeGreaterThanOrEqualTo(20 + 3 + 3 + 2 + 1);
        assertThat(seenRtt).isEqualTo(truthRtt);
    }

    @Test
    void connectionsOpenedBeforeTheCaptureGiveNoHandshakeAndSnaplenDoesNotChangeTheCounts() throws Exception {
        Path pcap = dir.resolve("cut.pcap");
        ScenarioTruth truth = scenario().openBeforeCapture(true).snaplen(96).build().write(pcap);

        List<FlowRecord> records = ReadBack.records(pcap);

        assertSumsMatch(records, truth, WLS3);
        assertThat(truth.connections().stream().filter(c -> c.rttMicros() >= 0))
                .allMatch(c -> c.serverPort() == 5556, "only Node Manager connections are opened during the capture");
        assertThat(Files.size(pcap)).isLessThan(truth.ipBytes() / 4);
    }
}
