package io.siteflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code siteflow rules check} and {@code siteflow rules explain} as a user runs them. */
class RulesCommandTest {
    private static final String NL = System.lineSeparator();

    @TempDir
    Path dir;

    private Path write(String name, String yaml) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, yaml);
        return f;
    }

    @Test
    void checkAcceptsTheSampleSiteModel() {
        Path sample = Path.of(System.getProperty("siteflow.root", "..")).resolve("deploy/conf/sites.yaml");
        CommandRun run = CommandRun.of("rules", "check", sample.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).startsWith(sample + ": valid: 2 sites, 6 hosts, 16 rules (defaults included), sha256:");
    }

    @Test
    void checkReportsEveryErrorWithFileLineColumnAndKey() throws Exception {
        Path f = write("sites.yaml", """
                threshold: 0.90
                sites:
                  region1: { cidrs: [10.1.0.0/16] }
                rules:
                  - { name: a, category: DB, ports: [1521, "70001"] }
                  - { name: b, category: DB, prot: tcp }
                """);
        CommandRun run = CommandRun.of("rules", "check", f.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains(f + ":5:44: rules[0].ports[1]: \"70001\" is not a port (1-65535)")
                .contains(f + ":6:30: rules[1].prot: unknown key, did you mean \"proto\"?");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void checkOfAMissingFileNamesIt() {
        CommandRun run = CommandRun.of("rules", "check", dir.resolve("none.yaml").toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo(dir.resolve("none.yaml") + ": no such file" + NL);
    }

    @Test
    void explainSaysWhichRuleMatchesAndWhy() {
        Path sample = Path.of(System.getProperty("siteflow.root", "..")).resolve("deploy/conf/sites.yaml");
        CommandRun run = CommandRun.of("rules", "explain", "--sites", sample.toString(),
                "tcp 10.2.0.20:40112 -> 10.1.0.10:1521 l7=oracle-tns");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("responder 10.1.0.10: host db1 (db), site region1")
                .contains("rule 1 jms-channel -> JMS")
                .contains("rule 2 fmw-oracle-tns -> DB (fmw-defaults.yaml:6:5): MATCH")
                .endsWith("result: DB by rule fmw-oracle-tns" + NL);
    }

    @Test
    void explainOfAMalformedFlowIsAUsageError() {
        Path sample = Path.of(System.getProperty("siteflow.root", "..")).resolve("deploy/conf/sites.yaml");
        CommandRun run = CommandRun.of("rules", "explain", "--sites", sample.toString(), "tcp 10.2.0.20:70001 -> 10.1.0.10:1521");

        assertThat(run.exitCode()).isEqualTo(64);
        assertThat(run.err()).startsWith("siteflow rules explain: FLOW: \"70001\" is not a port");
    }

    @Test
    void rulesHelpListsEachSubcommandWithAWholeSentence() {
        CommandRun run = CommandRun.of("rules", "--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("  check    Validate a site model: every error and warning, with file, line and"
                + NL + "             column." + NL)
                .contains("  explain  Say which rule matches a flow and why, rule by rule." + NL)
                .doesNotContain("each as" + NL);
    }

    @Test
    void errorLinesNameTheProgramOnce() {
        assertThat(CommandRun.of().err()).startsWith("siteflow: a command is required" + NL);
        assertThat(CommandRun.of("rules").err()).startsWith("siteflow rules: a subcommand is required: check or explain" + NL);
        assertThat(CommandRun.of("rules", "explain", "--sites", "x.yaml", "nonsense").err())
                .startsWith("siteflow rules explain: FLOW: ");
    }
}
