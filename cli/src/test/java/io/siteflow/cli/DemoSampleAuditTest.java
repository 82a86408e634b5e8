package io.siteflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.synth.ScenarioTruth;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code siteflow audit} of the demo's sample capture ({@link DemoCommand#sampleScenario}, 30 s) shows what the
 * distance costs: db1's local server wls1 calls it in 0.3 ms RTT + 3 ms, the remote wls3 and wls4 in 6.5 ms RTT
 * (less the edge's 2 × 75 µs) + 3 ms; the numbers of calls are exactly the sample's (its ground truth), the
 * call-time medians within 2%, in the JSON and the text report.
 */
class DemoSampleAuditTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long LOCAL_P50 = 300 + 3_000;
    private static final long REMOTE_P50 = 6_500 - 150 + 3_000;

    @TempDir
    static Path dir;
    static Path capture;
    static Path sites;
    static ScenarioTruth truth;

    @BeforeAll
    static void writeTheSample() throws Exception {
        capture = dir.resolve("sample.pcap");
        truth = DemoCommand.sampleScenario(Duration.ofSeconds(30)).write(capture);
        sites = dir.resolve("sites.yaml");
        try (InputStream in = DemoCommand.class.getResourceAsStream(DemoCommand.SAMPLE_SITES)) {
            Files.copy(in, sites);
        }
    }

    @Test
    void auditShowsTheLocalServersCallsBesideTheRemoteOnesWithExactCountsAndMedians() throws Exception {
        CommandRun run = CommandRun.of("audit", capture.toString(), "--sites", sites.toString(), "--format", "json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode db1 = JSON.readTree(run.out()).get("dbSites").get(0);
        assertThat(db1.get("name").asText()).isEqualTo("db1");
        assertThat(db1.get("localServers").asInt()).isEqualTo(1);
        assertThat(db1.get("remoteServers").asInt()).isEqualTo(2);
        assertThat(db1.get("local").get("calls").asLong()).isEqualTo(truth.dbCalls().get("10.1.0.20"));
        assertThat(db1.get("remote").get("calls").asLong())
                .isEqualTo(truth.dbCalls().get("10.2.0.20") + truth.dbCalls().get("10.2.0.21"));
        assertThat(truth.dbCalls().get("10.1.0.20")).isGreaterThan(100);
        assertWithinTwoPercent(db1.get("local").get("callMicros").get("p50").asLong(), LOCAL_P50);
        assertWithinTwoPercent(db1.get("remote").get("callMicros").get("p50").asLong(), REMOTE_P50);
        assertThat(db1.get("local").get("rttMicros").asLong()).isEqualTo(300);
        assertThat(db1.get("remote").get("rttMicros").asLong()).isEqualTo(6_500);
    }

    @Test
    void theTextReportPrintsBothSides() {
        CommandRun run = CommandRun.of("audit", capture.toString(), "--sites", sites.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("DB calls to db1 (10.1.0.10, site region1): local 1 servers, remote 2 servers\n"
                + "  local: " + truth.dbCalls().get("10.1.0.20") + " (");
        assertThat(run.out()).contains("  remote: " + (truth.dbCalls().get("10.2.0.20") + truth.dbCalls().get("10.2.0.21"))
                + " (");
    }

    private static void assertWithinTwoPercent(long actual, long expected) {
        assertThat(Math.abs(actual - expected) / (double) expected).as("%d against %d", actual, expected)
                .isLessThanOrEqualTo(0.02);
    }
}
