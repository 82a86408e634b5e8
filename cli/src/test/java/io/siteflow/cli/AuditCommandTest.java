package io.siteflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.synth.CapturePoint;
import io.siteflow.synth.ScenarioTruth;
import io.siteflow.synth.StretchedClusterScenario;
import io.siteflow.synth.TrafficCategory;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code siteflow audit} on a synthesised stretched cluster seen at the region-2 edge (two sites, DB, T3
 * cluster, JMS, Coherence, admin and DNS traffic, handshakes with a known RTT): the verdicts, DB shares,
 * per-category bytes and RTT equal what the scenario put into the capture, exactly.
 */
class AuditCommandTest {
    private static final String WLS3 = "10.2.0.20";
    private static final String WLS4 = "10.2.0.21";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static Path capture;
    static Path sites;
    static ScenarioTruth truth;

    @BeforeAll
    static void synthesiseCapture() throws Exception {
        capture = dir.resolve("stretched.pcap");
        truth = StretchedClusterScenario.builder()
                .duration(Duration.ofSeconds(90))
                .capturePoint(CapturePoint.regionEdge("region2", 75_000))
                .build()
                .write(capture);
        sites = dir.resolve("sites.yaml");
        Files.copy(Path.of(System.getProperty("siteflow.root", "..")).resolve("deploy/conf/sites.yaml"), sites);
    }

    @Test
    void givesThePlaybookVerdictPerServerExactly() throws Exception {
        CommandRun run = CommandRun.of("audit", capture.toString(), "--sites", sites.toString(), "--format", "json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode report = JSON.readTree(run.out());
        JsonNode wls3 = verdict(report, WLS3);
        JsonNode wls4 = verdict(report, WLS4);
        assertThat(wls3.get("verdict").asText()).isEqualTo("PASS");
        assertThat(wls4.get("verdict").asText()).isEqualTo("FAIL");
        for (JsonNode v : new JsonNode[] {wls3, wls4}) {
            String server = v.get("server").asText();
            assertThat(v.get("crossBytes").asLong()).isEqualTo(truth.crossSiteBytes(server));
            assertThat(v.get("dbShare").decimalValue()).isEqualByComparingTo(expectedShare(server));
            assertThat(categories(v)).isEqualTo(expectedCategories(server));
            assertThat(v.get("addresses").get("10.1.0.10").asLong())
                    .isEqualTo(truth.bytesByRemote(server).get("10.1.0.10"));
            assertThat(v.get("rttMicros").get("p50").asLong()).isEqualTo(6500);
            assertThat(v.get("rttMicros").get("max").asLong()).isEqualTo(6500);
            assertThat(v.get("remoteSite").asText()).isEqualTo("region1");
        }
        assertThat(wls3.get("name").asText()).isEqualTo("wls3");
        assertThat(wls3.get("dbConnections").get("max").asLong()).isEqualTo(20);
        assertThat(report.get("windows").size()).isGreaterThanOrEqualTo(4);
    }

    @Test
    void serverOptionKeepsOnlyThatServerAndCsvHasItsRows() {
        CommandRun run = CommandRun.of("audit", capture.toString(), "--sites", sites.toString(), "--format", "csv",
                "--server", WLS4);

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains(WLS4).doesNotContain(WLS3);
    }

    @Test
    void textReportNamesTheVerdictsAndTheRttAgainstOraclesLimit() {
        CommandRun run = CommandRun.of("audit", capture.toString(), "--sites", sites.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("server wls3 (10.2.0.20, site region2) -> site region1: PASS")
                .contains("server wls4 (10.2.0.21, site region2) -> site region1: FAIL")
                .contains("region1 <-> region2: p50 6.500 ms");
    }

    @Test
    void missingCaptureIsExitCodeTwoWithTheFileNamedAndNoReport() {
        CommandRun run = CommandRun.of("audit", dir.resolve("nope.pcap").toString(), "--sites", sites.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo(dir.resolve("nope.pcap") + ": no such file" + System.lineSeparator());
    }

    @Test
    void serverByItsNameInTheSiteModelGivesTheSameReportAsByAddress() {
        CommandRun byName = CommandRun.of("audit", capture.toString(), "--sites", sites.toString(), "--server", "wls3",
                "--format", "csv");
        CommandRun byAddress = CommandRun.of("audit", capture.toString(), "--sites", sites.toString(), "--server", WLS3,
                "--format", "csv");

        assertThat(byName.exitCode()).as(byName.err()).isZero();
        assertThat(byName.out()).isEqualTo(byAddress.out()).contains(WLS3).doesNotContain(WLS4);
    }

    @Test
    void serverThatIsNeitherAnAddressNorAHostIsAUsageErrorListingTheHosts() {
        CommandRun run = CommandRun.of("audit", capture.toString(), "--sites", sites.toString(), "--server", "10.2.0");

        assertThat(run.exitCode()).isEqualTo(64);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("siteflow audit: --server 10.2.0: neither an IP address nor a host of " + sites
                + " (hosts: db1, admin1, wls1, wls2, wls3, wls4)" + System.lineSeparator());
    }

    private static JsonNode verdict(JsonNode report, String server) {
        for (JsonNode v : report.get("verdicts")) {
            if (v.get("server").asText().equals(server)) {
                return v;
            }
        }
        throw new AssertionError("no verdict for " + server + " in " + report);
    }

    private static Map<String, Long> categories(JsonNode v) {
        Map<String, Long> m = new java.util.TreeMap<>();
        v.get("categories").fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asLong()));
        return m;
    }

    private static Map<String, Long> expectedCategories(String server) {
        Map<String, Long> m = new java.util.TreeMap<>();
        for (Map.Entry<TrafficCategory, Long> e : truth.crossSiteByCategory(server).entrySet()) {
            if (e.getValue() > 0) {
                m.put(e.getKey().name(), e.getValue());
            }
        }
        return m;
    }

    private static BigDecimal expectedShare(String server) {
        long db = truth.crossSiteByCategory(server).getOrDefault(TrafficCategory.DB, 0L);
        return BigDecimal.valueOf(db).divide(BigDecimal.valueOf(truth.crossSiteBytes(server)), 4, RoundingMode.DOWN);
    }
}
