package io.siteflow.rules.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.DefaultRules;
import io.siteflow.rules.model.PortMatch;
import io.siteflow.rules.model.PortRange;
import io.siteflow.rules.model.Role;
import io.siteflow.rules.model.SiteModel;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SiteModelLoaderTest {

    static final String GOOD = """
            threshold: 0.90
            minCrossBytes: 1000000
            defaults: fmw
            sites:
              region1: { cidrs: [10.1.0.0/16] }
              region2: { cidrs: [10.2.0.0/16, "fd00:2::/64"] }
            hosts:
              - { address: 10.1.0.10, name: db1, role: db }
              - { address: 10.2.0.20, name: wls3, role: app-server }
            rules:
              - { name: oracle-net, category: DB, l7: [oracle-tns] }
              - { name: oracle-ports, category: DB, ports: [1521, 1522, "2483-2484"] }
              - { name: jms-channel, category: JMS, ports: [8011], peerRoles: [app-server] }
            """;

    private static List<String> messages(String yaml) {
        return SiteModelLoader.parse("sites.yaml", yaml).diagnostics().stream().map(Diagnostic::toString).toList();
    }

    @Test
    void loadsTheDesignExampleWithDefaultRulesAppended() throws Exception {
        LoadResult result = SiteModelLoader.parse("sites.yaml", GOOD);

        SiteModel m = result.orThrow();
        assertThat(result.diagnostics()).isEmpty();
        assertThat(m.threshold()).isEqualByComparingTo(new BigDecimal("0.9"));
        assertThat(m.minCrossBytes()).isEqualTo(1_000_000L);
        assertThat(m.defaults()).isEqualTo(DefaultRules.FMW);
        assertThat(m.sites()).extracting(s -> s.name()).containsExactly("region1", "region2");
        assertThat(m.hosts()).extracting(h -> h.name() + "/" + h.role() + "/" + h.site())
                .containsExactly("db1/db/region1", "wls3/app-server/region2");
        assertThat(m.rules().subList(0, 3)).extracting(r -> r.name()).containsExactly("oracle-net", "oracle-ports", "jms-channel");
        assertThat(m.rules().get(1).matches()).containsExactly(new PortMatch(List.of(
                new PortRange(1521, 1521), new PortRange(1522, 1522), new PortRange(2483, 2484))));
        assertThat(m.rules().get(1).origin()).isEqualTo("sites.yaml:12:5");
        assertThat(m.rules().get(3).name()).isEqualTo("fmw-oracle-tns");
        assertThat(m.rules().get(3).builtIn()).isTrue();
        assertThat(m.version()).matches("sha256:[0-9a-f]{64}");
    }

    @Test
    void appliesDefaultsWhenKeysAreAbsent() throws Exception {
        SiteModel m = SiteModelLoader.parse("s.yaml", "sites:\n  a: { cidrs: [10.0.0.0/8] }\n").orThrow();

        assertThat(m.threshold()).isEqualByComparingTo("0.90");
        assertThat(m.minCrossBytes()).isEqualTo(1_000_000L);
        assertThat(m.defaults()).isEqualTo(DefaultRules.FMW);
        assertThat(m.rules()).allMatch(r -> r.builtIn());
    }

    @Test
    void defaultsNoneLeavesOnlyUserRules() throws Exception {
        SiteModel m = SiteModelLoader.parse("s.yaml", GOOD.replace("defaults: fmw", "defaults: none")).orThrow();

        assertThat(m.rules()).extracting(r -> r.name()).containsExactly("oracle-net", "oracle-ports", "jms-channel");
    }

    @Test
    void identicalContentGivesIdenticalVersionWhateverTheFormatting() throws Exception {
        String reformatted = GOOD.replace("{ cidrs: [10.1.0.0/16] }", "\n    cidrs:\n      - 10.1.0.0/16  # DB region")
                .replace("threshold: 0.90", "threshold: 0.9")
                .replace("[1521, 1522, \"2483-2484\"]", "[\"2483-2484\", 1522, 1521]");
        String a = SiteModelLoader.parse("a.yaml", GOOD).orThrow().version();
        String b = SiteModelLoader.parse("b.yaml", reformatted).orThrow().version();
        String c = SiteModelLoader.parse("c.yaml", GOOD.replace("8011", "8012")).orThrow().version();

        assertThat(b).isEqualTo(a);
        assertThat(c).isNotEqualTo(a);
    }

    @Test
    void rejectsPortOutOfRangeAtItsPosition() {
        String yaml = """
                sites:
                  a: { cidrs: [10.1.0.0/16] }
                rules:
                  - { name: r0, category: DB, ports: [1521] }
                  - { name: r1, category: DB, ports: [1522] }
                  - name: r2
                    category: OTHER
                    ports:
                      - 80
                      - "70001"
                """;
        assertThat(messages(yaml)).containsExactly("sites.yaml:10:9: rules[2].ports[1]: \"70001\" is not a port (1-65535)");
    }

    @Test
    void reportsEveryErrorAtOnce() {
        String yaml = """
                threshold: 1.5
                minCrossBytes: -3
                defaults: oracle
                sites:
                  a: { cidrs: [10.1.0.0/33] }
                  b: { cidrs: [] }
                hosts:
                  - { address: 10.1.0.300, role: db }
                  - { address: 10.9.0.1, role: app-server }
                rules:
                  - { name: x, prot: tcp, category: DB }
                  - { name: y, category: DATABASE, ports: ["2484-2483"], l7: [tns], peerSites: [c] }
                """;
        assertThat(messages(yaml)).containsExactly(
                "sites.yaml:1:12: threshold: \"1.5\" is not a share (0..1)",
                "sites.yaml:2:16: minCrossBytes: \"-3\" is not a byte count (0 or more)",
                "sites.yaml:3:11: defaults: \"oracle\" is not a default rule set (fmw or none)",
                "sites.yaml:5:3: sites.a: site has no cidrs",
                "sites.yaml:5:16: sites.a.cidrs[0]: 10.1.0.0/33: prefix length must be 0-32",
                "sites.yaml:6:3: sites.b: site has no cidrs",
                "sites.yaml:8:16: hosts[0].address: \"10.1.0.300\" is not an IPv4 address: 300 is above 255",
                "sites.yaml:9:16: hosts[1].address: 10.9.0.1 is outside every site",
                "sites.yaml:11:16: rules[0].prot: unknown key, did you mean \"proto\"?",
                "sites.yaml:12:26: rules[1].category: \"DATABASE\" is not a category (DB, CLUSTER, JMS, COHERENCE, FRONTEND, ADMIN, OTHER, UNKNOWN)",
                "sites.yaml:12:44: rules[1].ports[0]: \"2484-2483\" is not a port range (low-high, 1-65535)",
                "sites.yaml:12:63: rules[1].l7[0]: \"tns\" is not an L7 protocol, did you mean \"oracle-tns\"?",
                "sites.yaml:12:81: rules[1].peerSites[0]: unknown site \"c\" (sites: a, b)");
    }
}
