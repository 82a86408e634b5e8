package io.siteflow.systemtest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.cli.CommandRun;
import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.processor.topology.Alert;
import io.siteflow.processor.topology.AlertJson;
import io.siteflow.synth.CapturePoint;
import io.siteflow.synth.StretchedClusterScenario;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The site comparison and the DB call budget through a real broker: a synthesised stretched cluster captured on
 * the database host db1 (so the capture holds the DB calls of the local servers wls1 and wls2 beside those of the
 * remote wls3 and wls4; 3 ms service time) is replayed by {@code siteflow capture -r FILE --bootstrap ...} into a
 * running {@code siteflow process} whose site model sets {@code dbCallBudget: {networkShare: 0.5}}. The processor's
 * {@code /api/dbsites} answer is the {@code dbSites} of {@code siteflow audit FILE --format json}, exactly; and
 * each remote server, whose calls spend more than half their median on the RTT in every window, raises one
 * {@code DB_CALLS} alert (at the end of its first window, with that window's figures) and no more: the state does
 * not change afterwards and the capture is shorter than the repeat interval.
 */
class DbSitesMatchAuditIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void streamedSiteComparisonIsTheAuditsAndAnExceededBudgetRaisesOneAlertPerServer() throws Exception {
        Path capture = dir.resolve("db1.pcap");
        StretchedClusterScenario.builder().duration(Duration.ofSeconds(150)).dbServiceTime(Duration.ofMillis(3))
                .capturePoint(CapturePoint.host("db1")).build().write(capture);
        String yaml = Files.readString(Path.of(System.getProperty("siteflow.root", "..")).resolve("deploy/conf/sites.yaml"))
                .replace("minCrossBytes: 1000000\n", "minCrossBytes: 1000000\ndbCallBudget: { networkShare: 0.5 }\n");
        Path sites = Files.writeString(dir.resolve("sites.yaml"), yaml);
        CommandRun audit = CommandRun.of("audit", capture.toString(), "--sites", sites.toString(), "--format", "json");
        assertThat(audit.exitCode()).as(audit.err()).isZero();
        JsonNode report = JSON.readTree(audit.out());
        JsonNode db1 = report.get("dbSites").get(0);
        assertThat(db1.get("localServers").asInt()).isEqualTo(2);
        assertThat(db1.get("remoteServers").asInt()).isEqualTo(2);
        assertThat(db1.get("local").get("calls").asLong()).isPositive();
        assertThat(db1.get("remote").get("calls").asLong()).isPositive();

        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).build()) {
            broker.start();
            try (InProcessProcessor p = InProcessProcessor.start(broker.bootstrap(), sites, dir.resolve("state"),
                    "it-db-sites")) {
                CommandRun replay = CommandRun.of("capture", "-r", capture.toString(), "--bootstrap",
                        broker.bootstrap(), "--agent", "db-edge", "--spool-dir", dir.resolve("spool").toString());
                assertThat(replay.exitCode()).as(replay.err()).isZero();

                Awaitility.await().atMost(Topics.WAIT).ignoreExceptions().untilAsserted(() -> assertThat(
                        JSON.readTree(p.dbSitesJson())).isEqualTo(report.get("dbSites")));

                List<Alert> dbCalls = dbCallAlerts(Topics.read(broker.bootstrap(), io.siteflow.model.wire.Topics.ALERTS,
                        got -> dbCallAlerts(got).size() >= 2));
                assertThat(dbCalls).extracting(Alert::message).containsExactlyInAnyOrder(
                        expectedMessage(report, "10.2.0.20"), expectedMessage(report, "10.2.0.21"));
                assertThat(dbCalls).extracting(Alert::key).containsExactlyInAnyOrder("10.2.0.20", "10.2.0.21");
            }
        }
    }

    private static List<Alert> dbCallAlerts(List<ConsumerRecord<String, byte[]>> records) {
        List<Alert> out = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            Alert a = AlertJson.parse(new String(r.value(), StandardCharsets.UTF_8));
            if (a.type().equals("DB_CALLS")) {
                out.add(a);
            }
        }
        return out;
    }

    /**
     * The alert of the server's first window with calls, as the audit computed that window (its networkShare
     * written with 4 decimals; the tree reads it as a double).
     */
    private static String expectedMessage(JsonNode report, String server) {
        for (JsonNode w : report.get("windows")) {
            JsonNode d = w.get("dbCalls");
            if (w.get("server").asText().equals(server) && d.get("calls").asLong() > 0) {
                return w.get("name").asText() + " (" + server + ") towards region1: the RTT (" + d.get("rttMicros")
                        + " us) is " + d.get("networkShare").decimalValue().setScale(4, RoundingMode.HALF_EVEN).toPlainString() + " of the DB call median ("
                        + d.get("callMicros").get("p50") + " us), above the budget 0.5";
            }
        }
        throw new AssertionError("no window with DB calls for " + server);
    }
}
