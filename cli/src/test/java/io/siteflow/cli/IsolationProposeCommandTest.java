package io.siteflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.rules.isolation.IsolationProposal;
import io.siteflow.rules.load.LoadResult;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.IsolationRule;
import io.siteflow.rules.model.Protocols;
import io.siteflow.synth.CapturePoint;
import io.siteflow.synth.StretchedClusterScenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code siteflow isolation propose} on a synthesised stretched cluster seen at the region-2 edge, with the demo's
 * site model whose app servers are in one cluster; and the round trip through {@code siteflow isolation check}.
 */
class IsolationProposeCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static Path capture;
    static Path sites;

    @BeforeAll
    static void synthesiseCapture() throws Exception {
        capture = dir.resolve("stretched.pcap");
        StretchedClusterScenario.builder().duration(Duration.ofSeconds(60))
                .capturePoint(CapturePoint.regionEdge("region2", 75_000)).build().write(capture);
        sites = dir.resolve("sites.yaml");
        Files.writeString(sites, Files.readString(Path.of(System.getProperty("siteflow.root", ".."))
                .resolve("deploy/conf/sites.yaml")).replace("role: app-server }", "role: app-server, cluster: soa_cluster }"));
    }

    @Test
    void printsABlockThatLoadsWithTheModelWithoutADiagnostic() throws Exception {
        CommandRun run = CommandRun.of("isolation", "propose", capture.toString(), "--sites", sites.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).startsWith("# isolation policy proposed by siteflow from ")
                .contains("\nisolation:\n  scope: cross-site\n  default: deny\n  groups:\n"
                        + "    soa_cluster: { clusters: [soa_cluster] }\n    db: { roles: [db] }\n"
                        + "    admin: { roles: [admin] }\n  allow:\n")
                .contains("    - { name: soa_cluster-to-db-DB-1521, from: soa_cluster, to: db, categories: [DB], "
                        + "ports: [1521], proto: [tcp], l7: [oracle-tns] }\n");
        LoadResult r = SiteModelLoader.parse("sites.yaml", IsolationProposal.withBlock(Files.readString(sites), run.out()));
        assertThat(r.diagnostics()).isEmpty();
    }

    @Test
    void proposeThenCheckOfTheSameCaptureFindsNoViolation() throws Exception {
        Path proposed = dir.resolve("proposed.yaml");

        CommandRun propose = CommandRun.of("isolation", "propose", capture.toString(), "--sites", sites.toString(),
                "--in-model", "--out", proposed.toString());
        CommandRun check = CommandRun.of("isolation", "check", capture.toString(), "--sites", proposed.toString(),
                "--format", "json");

        assertThat(propose.exitCode()).as(propose.err()).isZero();
        assertThat(propose.out()).isEmpty();
        String model = Files.readString(sites);
        String beforeItsOwnBlock = model.substring(0, model.indexOf("\nisolation:\n") + 1);
        assertThat(Files.readString(proposed)).startsWith(beforeItsOwnBlock) // the sample's own block replaced
                .doesNotContain("no-jms-across").containsOnlyOnce("\nisolation:\n");
        assertThat(check.exitCode()).as(check.out()).isZero();
        JsonNode report = JSON.readTree(check.out());
        assertThat(report.get("violations")).isEmpty();
        assertThat(report.get("pairs")).isNotEmpty().allSatisfy(p -> assertThat(p.get("state").asText())
                .isEqualTo("ISOLATED"));
    }

    @Test
    void withoutAnyOneProposedRuleTheCheckFindsExactlyThatRulesEdges() throws Exception {
        Path proposed = dir.resolve("round-trip.yaml");
        assertThat(CommandRun.of("isolation", "propose", capture.toString(), "--sites", sites.toString(), "--in-model",
                "--out", proposed.toString()).exitCode()).isZero();
        String model = Files.readString(proposed);
        List<IsolationRule> rules = SiteModelLoader.parse("p.yaml", model).model().orElseThrow().isolation()
                .orElseThrow().allow();
        assertThat(rules).hasSizeGreaterThanOrEqualTo(5);
        Set<String> seen = new HashSet<>();
        int edges = 0;

        for (IsolationRule rule : rules) {
            Path without = dir.resolve("without-" + rule.name() + ".yaml");
            Files.writeString(without, withoutRule(model, rule.name()));
            CommandRun check = CommandRun.of("isolation", "check", capture.toString(), "--sites", without.toString(),
                    "--format", "json");

            assertThat(check.exitCode()).as(rule.name() + ": " + check.err()).isEqualTo(3);
            JsonNode violations = JSON.readTree(check.out()).get("violations");
            assertThat(violations).as(rule.name()).isNotEmpty();
            for (JsonNode v : violations) {
                assertThat(v.get("decision").asText()).isEqualTo("UNLISTED");
                assertThat(v.get("fromGroups").get(0).asText()).isEqualTo(rule.from().get(0));
                assertThat(v.get("toGroups").get(0).asText()).isEqualTo(rule.to().get(0));
                assertThat(v.get("category").asText()).isEqualTo(rule.categories().get(0).name());
                assertThat(Protocols.name(v.get("proto").asInt())).isEqualTo(Protocols.name(rule.protos().get(0)));
                if (!rule.ports().isEmpty()) {
                    assertThat(v.get("serverPort").asInt()).isEqualTo(rule.ports().get(0).low());
                }
                String key = v.get("client").asText() + "|" + v.get("server").asText() + "|"
                        + v.get("serverPort").asInt() + "|" + v.get("proto").asInt();
                assertThat(seen.add(key)).as("edge %s violates without two rules", key).isTrue();
                edges++;
            }
        }
        assertThat(model).contains("proposed by siteflow from " + edges + " edges seen");
    }

    @Test
    void leavesOutEdgesBelowMinFlowsAndRejectsAMinFlowsBelowOne() {
        CommandRun all = CommandRun.of("isolation", "propose", capture.toString(), "--sites", sites.toString());
        CommandRun frequent = CommandRun.of("isolation", "propose", capture.toString(), "--sites", sites.toString(),
                "--min-flows", "1000000");
        CommandRun zero = CommandRun.of("isolation", "propose", capture.toString(), "--sites", sites.toString(),
                "--min-flows", "0");

        assertThat(frequent.exitCode()).isZero();
        assertThat(frequent.out()).contains("  allow: []\n").containsPattern(
                "  # left out: [0-9,]+ edges with fewer than 1,000,000 flows \\([0-9,]+ bytes");
        assertThat(all.out()).doesNotContain("left out");
        assertThat(zero.exitCode()).isEqualTo(64);
        assertThat(zero.err()).startsWith("siteflow isolation propose: --min-flows 0: must be 1 or more");
    }

    @Test
    void aMissingCaptureIsExitCodeTwoWithNothingPrinted() {
        CommandRun run = CommandRun.of("isolation", "propose", capture.toString(), dir.resolve("nope.pcap").toString(),
                "--sites", sites.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo(dir.resolve("nope.pcap") + ": no such file" + System.lineSeparator());
    }

    @Test
    void anOutFileThatCannotBeWrittenIsExitCodeOneWithTheCause() {
        Path out = dir.resolve("no-such-dir").resolve("p.yaml");

        CommandRun run = CommandRun.of("isolation", "propose", capture.toString(), "--sites", sites.toString(), "--out",
                out.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("siteflow isolation propose: --out " + out + ": cannot write: "
                + "NoSuchFileException " + out + System.lineSeparator());
    }

    /** The model's text without the rule's line and the evidence comment before it. */
    private static String withoutRule(String model, String rule) {
        List<String> lines = new ArrayList<>(model.lines().toList());
        int at = lines.indexOf(lines.stream().filter(l -> l.startsWith("    - { name: " + rule + ",")).findFirst()
                .orElseThrow());
        assertThat(lines.get(at - 1)).startsWith("    # ");
        lines.remove(at);
        lines.remove(at - 1);
        return String.join("\n", lines) + "\n";
    }
}
