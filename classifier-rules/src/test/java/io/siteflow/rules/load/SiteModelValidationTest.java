package io.siteflow.rules.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.rules.model.SiteModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SiteModelValidationTest {

    private static List<String> messages(String yaml) {
        return SiteModelLoader.parse("sites.yaml", yaml).diagnostics().stream().map(Diagnostic::toString).toList();
    }

    @Test
    void rejectsDuplicateHostAddressNamingTheFirst() {
        String yaml = """
                sites:
                  a: { cidrs: [10.1.0.0/16, "fd00::/64"] }
                hosts:
                  - { address: 10.1.0.10, role: db }
                  - { address: "fd00::1", role: db }
                  - { address: 10.1.0.10, role: app-server }
                  - { address: "fd00:0::1", role: db }
                """;
        assertThat(messages(yaml)).containsExactly(
                "sites.yaml:6:16: hosts[2].address: duplicate host address 10.1.0.10 (also hosts[0])",
                "sites.yaml:7:16: hosts[3].address: duplicate host address fd00::1 (also hosts[1])");
    }

    @Test
    void warnsAboutARuleShadowedByAnEarlierOne() throws Exception {
        String yaml = """
                defaults: none
                sites:
                  a: { cidrs: [10.1.0.0/16] }
                rules:
                  - { name: all-db, category: DB, ports: ["1500-1600"] }
                  - { name: tns, category: DB, proto: tcp, ports: [1521] }
                  - { name: web, category: FRONTEND, ports: [80] }
                """;
        LoadResult r = SiteModelLoader.parse("sites.yaml", yaml);

        assertThat(r.diagnostics()).extracting(Diagnostic::toString).containsExactly(
                "sites.yaml:6:5: warning: rules[1]: rule \"tns\" never matches: rules[0] (\"all-db\") matches every flow it would");
        assertThat(r.model()).isPresent();
    }

    @Test
    void warnsAboutMisspeltHostRolesAndRuleRolesNoHostHas() {
        String yaml = """
                defaults: none
                sites:
                  a: { cidrs: [10.1.0.0/16] }
                hosts:
                  - { address: 10.1.0.1, role: appserver }
                  - { address: 10.1.0.2, role: batch }
                rules:
                  - { name: jms, category: JMS, peerRoles: [app-server, batch] }
                """;
        assertThat(messages(yaml)).containsExactly(
                "sites.yaml:5:32: warning: hosts[0].role: \"appserver\" is not a well-known role, did you mean \"app-server\"?",
                "sites.yaml:8:44: warning: rules[0].peerRoles: no listed host has role \"app-server\"");
    }

    @Test
    void warnsAboutOverlappingSiteNetworksAndRejectsTheSameNetworkTwice() {
        String yaml = """
                sites:
                  a: { cidrs: [10.1.0.0/16] }
                  b: { cidrs: [10.1.5.0/24, 10.1.0.0/16] }
                """;
        assertThat(messages(yaml)).containsExactly(
                "sites.yaml:3:16: warning: sites.b.cidrs[0]: 10.1.5.0/24 overlaps 10.1.0.0/16 of site \"a\"; the longest prefix wins",
                "sites.yaml:3:29: sites.b.cidrs[1]: 10.1.0.0/16 is also a network of site \"a\"");
    }

    @Test
    void reportsYamlSyntaxErrorsWithPosition() {
        String yaml = """
                sites:
                  a: { cidrs: [10.1.0.0/16 }
                """;
        assertThat(messages(yaml)).containsExactly("sites.yaml:2:28: YAML syntax error: expected ',' or ']', but got }");
    }

    @Test
    void reportsATabIndentedFileAsASyntaxErrorAtTheTab() {
        assertThat(messages("sites:\n\ta: {}\n")).containsExactly(
                "sites.yaml:2:1: YAML syntax error: found character '\\t(TAB)' that cannot start any token. (Do not use \\t(TAB) for indentation)");
    }

    @Test
    void rejectsAliasesAndSeveralDocuments() {
        assertThat(messages("sites:\n  a: &x { cidrs: [10.0.0.0/8] }\n  b: *x\n")).contains(
                "sites.yaml:3:6: sites.b: aliases (*x) are not supported: write the value out");
        assertThat(messages("sites:\n  a: { cidrs: [10.0.0.0/8] }\n---\nsites: {}\n")).containsExactly(
                "sites.yaml:4:1: only one YAML document is allowed");
    }

    @Test
    void rejectsDuplicateKeys() {
        String yaml = """
                sites:
                  a: { cidrs: [10.1.0.0/16] }
                  a: { cidrs: [10.2.0.0/16] }
                """;
        assertThat(messages(yaml)).containsExactly("sites.yaml:3:3: sites.a: duplicate key (first at line 2)");
    }

    @Test
    void rejectsMissingKeysWrongTypesAndUnknownTopLevelKeys() {
        String yaml = """
                site: {}
                hosts:
                  - { name: x }
                  - 10.1.0.1
                rules: { name: r }
                """;
        assertThat(messages(yaml)).containsExactly(
                "sites.yaml:1:1: site: unknown key, did you mean \"sites\"?",
                "sites.yaml:1:1: missing key \"sites\"",
                "sites.yaml:3:5: hosts[0]: missing key \"address\"",
                "sites.yaml:3:5: hosts[0]: missing key \"role\"",
                "sites.yaml:4:5: hosts[1]: expected a mapping, found a string",
                "sites.yaml:5:8: rules: expected a list, found a mapping");
    }

    @Test
    void rejectsAnEmptyFileAndANonMappingRoot() {
        assertThat(messages("")).containsExactly("sites.yaml:1:1: the file is empty");
        assertThat(messages("- a\n- b\n")).containsExactly("sites.yaml:1:1: expected a mapping, found a list");
    }

    @Test
    void checksExplicitAuditPairs() throws Exception {
        String yaml = """
                sites:
                  r1: { cidrs: [10.1.0.0/16] }
                  r2: { cidrs: [10.2.0.0/16] }
                hosts:
                  - { address: 10.1.0.10, name: db1, role: db }
                  - { address: 10.2.0.20, name: wls3, role: app-server }
                audit:
                  - { server: wls3, remoteSite: r1 }
                  - { server: 10.2.0.21, remoteSite: r1 }
                  - { server: 10.2.0.20, remoteSite: r3 }
                  - { server: db1, remoteSite: r1 }
                """;
        assertThat(messages(yaml)).containsExactly(
                "sites.yaml:9:15: audit[1].server: \"10.2.0.21\" is not a listed host (address or name)",
                "sites.yaml:10:38: audit[2].remoteSite: unknown site \"r3\" (sites: r1, r2)",
                "sites.yaml:11:32: audit[3].remoteSite: server 10.1.0.10 is itself in site \"r1\"");
        SiteModel m = SiteModelLoader.parse("s", yaml.lines().limit(8).reduce("", (a, b) -> a + b + "\n")).orThrow();
        assertThat(m.audit()).extracting(a -> a.server().name() + "->" + a.remoteSite().name()).containsExactly("wls3->r1");
    }

    @Test
    void rejectsDuplicateRuleNamesIncludingDefaultOnes() {
        String yaml = """
                sites:
                  a: { cidrs: [10.1.0.0/16] }
                rules:
                  - { name: x, category: DB, ports: [1] }
                  - { name: x, category: DB, ports: [2] }
                  - { name: fmw-dns, category: DB, ports: [3] }
                """;
        assertThat(messages(yaml)).containsExactly(
                "sites.yaml:5:5: rules[1]: duplicate rule name \"x\" (also rules[0])",
                "sites.yaml:6:5: rules[2]: duplicate rule name \"fmw-dns\" (also a default rule)");
    }

    @Test
    void theBuiltInRuleSetLoadsCleanly() {
        assertThat(DefaultRuleSet.fmw().diagnostics).isEmpty();
        assertThat(DefaultRuleSet.fmw().ruleList()).hasSizeGreaterThan(10);
    }

    @Test
    void orThrowListsEveryError() {
        LoadResult r = SiteModelLoader.parse("sites.yaml", "threshold: 2\nsites: {}\nbogus: 1\n");

        assertThatThrownBy(r::orThrow).isInstanceOf(SiteModelException.class).hasMessage(
                "sites.yaml:1:12: threshold: \"2\" is not a share (0..1)\n"
                        + "sites.yaml:3:1: bogus: unknown key (expected one of: threshold, minCrossBytes, dbCallBudget, "
                        + "rttLimitMs, defaults, sites, hosts, rules, audit, isolation)");
    }

    @Test
    void loadsAFileNamingItInDiagnostics(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("sites.yaml");
        Files.writeString(f, "sites:\n  a: { cidrs: [10.0.0.0/8] }\nhosts: [{ address: 10.0.0.1, role: db, nam: x }]\n");

        LoadResult r = SiteModelLoader.load(f);

        assertThat(r.diagnostics()).extracting(Diagnostic::toString)
                .containsExactly(f + ":3:40: hosts[0].nam: unknown key, did you mean \"name\"?");
    }
}
