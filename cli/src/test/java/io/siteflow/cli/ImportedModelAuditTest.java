package io.siteflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.siteflow.synth.CapturePoint;
import io.siteflow.synth.StretchedClusterScenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The model {@code siteflow sites import} makes of the soaedg domain audits a synthetic capture of that domain
 * (traffic-synth's stretched cluster: its hosts are soaedg's admin server, database and soa_server1-4) exactly as
 * a hand-written model of the same domain does: the same audited pairs, verdicts, bytes per category and DB share.
 */
class ImportedModelAuditTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static Path capture;
    static Path imported;

    @BeforeAll
    static void synthesiseAndImport() throws Exception {
        capture = dir.resolve("soaedg.pcap");
        StretchedClusterScenario.builder().duration(Duration.ofSeconds(60))
                .capturePoint(CapturePoint.regionEdge("region2", 75_000)).build().write(capture);
        CommandRun run = SitesCommandTest.importSoaedg(SitesCommandTest.SOAEDG, "--domain",
                SitesCommandTest.SOAEDG.resolve("config/config.xml").toString());
        imported = dir.resolve("imported.yaml");
        Files.writeString(imported, run.out());
    }

    @Test
    void importedAndHandWrittenModelsGiveTheSameVerdicts() throws Exception {
        Path byHand = Path.of(ImportedModelAuditTest.class.getResource("soaedg-by-hand.yaml").toURI());

        Map<String, JsonNode> withImported = verdicts(imported);
        Map<String, JsonNode> withHandWritten = verdicts(byHand);

        assertThat(withImported.keySet()).containsExactly("10.2.0.20 region1", "10.2.0.21 region1", "10.2.0.30 region1");
        assertThat(withImported).isEqualTo(withHandWritten);
        assertThat(withImported.get("10.2.0.20 region1").get("verdict").asText()).isEqualTo("PASS");
        assertThat(withImported.get("10.2.0.21 region1").get("verdict").asText()).isEqualTo("FAIL");
        assertThat(withImported.get("10.2.0.30 region1").get("verdict").asText()).isEqualTo("INSUFFICIENT");
        assertThat(withImported.get("10.2.0.20 region1").get("categories").fieldNames())
                .toIterable().containsExactlyInAnyOrder("DB", "CLUSTER", "JMS", "COHERENCE", "ADMIN", "OTHER");
    }

    /**
     * Whole-capture verdicts by "server remoteSite", without what names the model: host names, the rule-set hash
     * and the names of the rules that matched the top flows (their categories stay).
     */
    private static Map<String, JsonNode> verdicts(Path sites) throws Exception {
        CommandRun run = CommandRun.of("audit", capture.toString(), "--sites", sites.toString(), "--format", "json");
        assertThat(run.exitCode()).as(run.err()).isZero();
        Map<String, JsonNode> out = new TreeMap<>();
        for (JsonNode v : JSON.readTree(run.out()).get("verdicts")) {
            ObjectNode copy = v.deepCopy();
            copy.remove("name");
            copy.remove("rules");
            copy.get("topFlows").forEach(f -> ((ObjectNode) f).remove("rule"));
            out.put(v.get("server").asText() + " " + v.get("remoteSite").asText(), copy);
        }
        return out;
    }
}
