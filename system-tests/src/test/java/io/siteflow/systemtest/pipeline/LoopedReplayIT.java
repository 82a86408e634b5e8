package io.siteflow.systemtest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.cli.CommandRun;
import io.siteflow.cli.DemoCommand;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.processor.query.DbCallHistogram;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.synth.ScenarioTruth;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's looped replay through a real broker: the demo's sample (DemoCommand's scenario, 20 s here instead of
 * 120 s) replayed as the demo's agent replays it ({@code --realtime --loop}, no {@code -F}, agent
 * {@code region2-edge}), for {@value #PASSES} passes, into a running {@code siteflow process} with the demo's site
 * model. Every pass repeats the capture's 5-tuples and TCP sequence numbers one pass later, so each audited server's
 * cumulative DB calls, DB bytes and cross-site bytes are exactly {@value #PASSES} times those of
 * {@code siteflow audit} over the file, and its DB connections open anew every pass ({@value #PASSES} handshakes per
 * pooled connection on {@code siteflow.flows}). Until 2026-12-03 a pass's SYN joined the flow of the previous pass,
 * whose sequence numbers made every later DB call look like a retransmission: the calls stayed at one pass while the
 * bytes grew.
 */
class LoopedReplayIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PASSES = 3;
    private static final String WLS3 = "10.2.0.20";

    @TempDir
    Path dir;

    @Test
    void aLoopedReplayCountsEveryPassesCallsBytesAndConnections() throws Exception {
        Path capture = dir.resolve("demo-sample.pcap");
        ScenarioTruth truth = DemoCommand.sampleScenario(Duration.ofSeconds(20)).write(capture);
        Path sites = dir.resolve("sites.yaml");
        try (InputStream in = DemoCommand.class.getResourceAsStream(DemoCommand.SAMPLE_SITES)) {
            Files.copy(in, sites);
        }
        CommandRun audit = CommandRun.of("audit", capture.toString(), "--sites", sites.toString(), "--format", "json");
        assertThat(audit.exitCode()).as(audit.err()).isZero();
        Map<String, JsonNode> onePass = new TreeMap<>();
        JSON.readTree(audit.out()).get("verdicts").forEach(v -> onePass.put(v.get("server").asText(), v));
        assertThat(onePass).containsOnlyKeys(WLS3, "10.2.0.21");
        assertThat(onePass.get(WLS3).get("dbCalls").get("calls").asLong()).isEqualTo(truth.dbCalls().get(WLS3));

        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).build()) {
            broker.start();
            try (InProcessProcessor p = InProcessProcessor.start(broker.bootstrap(), sites, dir.resolve("state"),
                    "it-looped-replay")) {
                CommandRun replay = CommandRun.of("capture", "-r", capture.toString(), "--realtime", "--loop",
                        "--passes", Integer.toString(PASSES), "--bootstrap", broker.bootstrap(), "--agent",
                        "region2-edge", "--spool-dir", dir.resolve("spool").toString());
                assertThat(replay.exitCode()).as(replay.err()).isZero();

                Awaitility.await().atMost(Topics.WAIT).ignoreExceptions().untilAsserted(() -> {
                    List<Verdict> verdicts = p.cumulativeVerdicts();
                    assertThat(verdicts).extracting(Verdict::server).containsExactlyElementsOf(onePass.keySet());
                    for (Verdict v : verdicts) {
                        JsonNode once = onePass.get(v.server());
                        assertThat(v.dbCalls().calls()).as(v.server() + " calls")
                                .isEqualTo(PASSES * once.get("dbCalls").get("calls").asLong());
                        assertThat(v.crossBytes()).as(v.server() + " cross-site bytes")
                                .isEqualTo(PASSES * once.get("crossBytes").asLong());
                        assertThat(v.categories().get(Category.DB)).as(v.server() + " DB bytes")
                                .isEqualTo(PASSES * once.get("categories").get("DB").asLong());
                    }
                });
                // /api/dbcalls: the histograms hold every pass's calls too
                assertThat(p.runtime().queries().dbCallHistograms())
                        .extracting(DbCallHistogram::server, h -> h.histogram().total())
                        .containsExactly(
                                tuple(WLS3,
                                        PASSES * onePass.get(WLS3).get("dbCalls").get("calls").asLong()),
                                tuple("10.2.0.21",
                                        PASSES * onePass.get("10.2.0.21").get("dbCalls").get("calls").asLong()));

                List<ConsumerRecord<String, byte[]>> flows = Topics.read(broker.bootstrap(),
                        io.siteflow.model.wire.Topics.FLOWS, got -> true);
                long handshakes = 0;
                for (ConsumerRecord<String, byte[]> r : flows) {
                    FlowRecord f = FlowRecordJson.parse(r.value());
                    if (f.src().equals(WLS3) && f.dstPort() == 1521 && f.rttMicros() != null) {
                        handshakes++;
                    }
                }
                assertThat(handshakes).as("handshakes of wls3's DB connections")
                        .isEqualTo(PASSES * (long) truth.dbConnections().get(WLS3));
            }
        }
    }
}
