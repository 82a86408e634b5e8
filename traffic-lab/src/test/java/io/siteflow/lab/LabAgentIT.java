package io.siteflow.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.siteflow.agent.app.AgentRunner;
import io.siteflow.agent.config.CaptureOptions;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live agent ({@code siteflow capture -i rt-r2 -F 10.1.0.0/16 --json}) inside the lab's router during a
 * run: summed per IP pair, its records carry exactly the truth's packets and IP bytes (the nudge that
 * follows is outside {@code -F}: its BPF filter drops it), and it saw the handshakes at the inter-site RTT.
 */
class LabAgentIT {
    @TempDir
    Path dir;

    @Test
    void liveAgentOnTheRouterCountsExactlyTheTruth() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        Path json = dir.resolve("flows.jsonl");
        StringWriter err = new StringWriter();
        try (TrafficLab lab = TrafficLab.up("lait" + ProcessHandle.current().pid() % 1_000_000,
                TrafficLab.DEFAULT_DELAY_NANOS)) {
            AgentRunner agent = new AgentRunner(options(lab.agentInterface(), json),
                    new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
            Future<Integer> exit = pool.submit(() -> Netns.call(lab.routerNamespace(), agent::run));
            LabTruth truth;
            try {
                await("capturing").atMost(Duration.ofSeconds(20))
                        .until(() -> err.toString().contains("capturing on rt-r2"));
                truth = lab.run(RunSpec.of(Duration.ofSeconds(6), 0.93).withShare("wls4", 0.80));
                await("agent received every packet").atMost(Duration.ofSeconds(10))
                        .until(() -> agent.received() >= truth.packets());
                lab.nudge();
            } finally {
                agent.stop();
            }
            assertThat(exit.get(60, TimeUnit.SECONDS)).as(err.toString()).isZero();
            List<FlowRecord> records = Files.readAllLines(json).stream().map(LabAgentIT::parse).toList();
            Map<String, List<Long>> ours = new TreeMap<>();
            Map<String, long[]> sums = new TreeMap<>();
            for (FlowRecord r : records) {
                String pair = r.src().compareTo(r.dst()) <= 0 ? r.src() + " " + r.dst() : r.dst() + " " + r.src();
                long[] t = sums.computeIfAbsent(pair, k -> new long[2]);
                t[0] += r.totalPackets();
                t[1] += r.totalBytes();
            }
            sums.forEach((k, v) -> ours.put(k, List.of(v[0], v[1])));
            Map<String, List<Long>> expected = new TreeMap<>();
            truth.pairs().forEach((k, v) -> expected.put(k, List.of(v[0], v[1])));
            assertThat(ours).isEqualTo(expected);
            List<Long> rtts = records.stream().filter(r -> r.rttMicros() != null).map(FlowRecord::rttMicros).sorted()
                    .toList();
            assertThat(rtts.get(rtts.size() / 2)).isBetween(5_500L, 7_500L);
            assertThat(err.toString()).contains(" 0 dropped by kernel");
        } finally {
            pool.shutdownNow();
        }
    }

    private static CaptureOptions options(String iface, Path json) {
        return CaptureOptions.builder().iface(iface).remoteCidr(LabTopology.CIDR_R1).agent("lab-it")
                .json(json.toString()).spoolDir(Path.of("/nonexistent-spool")).spoolMaxMb(1).build();
    }

    private static FlowRecord parse(String line) {
        try {
            return FlowRecordJson.parse(line);
        } catch (Exception e) {
            throw new AssertionError(line, e);
        }
    }
}
