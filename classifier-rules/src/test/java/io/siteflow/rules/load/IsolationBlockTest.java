package io.siteflow.rules.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.rules.model.IsolationPolicy;
import io.siteflow.rules.model.SiteModel;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@code isolation:} block of {@code sites.yaml} as {@code siteflow rules check} reports it: every error and
 * warning at its {@code file:line:column: path: message}, and the policy's version (docs/RULES.md, "Isolation
 * policy"). The site model above the block is 8 lines, so {@code isolation:} is line 9.
 */
class IsolationBlockTest {
    private static final String MODEL = """
            defaults: none
            sites:
              region1: { cidrs: [10.1.0.0/16] }
              region2: { cidrs: [10.2.0.0/16] }
            hosts:
              - { address: 10.1.0.10, name: db1, role: db }
              - { address: 10.1.0.21, name: wls1, role: app-server, cluster: soa_cluster }
              - { address: 10.2.0.20, name: wls3, role: app-server, cluster: soa_cluster }
            """;

    private static LoadResult load(String isolation) {
        return SiteModelLoader.parse("sites.yaml", MODEL + isolation);
    }

    private static List<String> messages(String isolation) {
        return load(isolation).diagnostics().stream().map(Diagnostic::toString).toList();
    }

    @Test
    void namesAnUnknownGroupWithTheNearestNameOrTheGroupsThereAre() {
        String isolation = """
                isolation:
                  groups:
                    db: { roles: [db] }
                    soa: { clusters: [soa_cluster] }
                  allow:
                    - { name: app-db, from: soa, to: dbs }
                    - { name: ops-db, from: [ops], to: db }
                """;
        assertThat(messages(isolation)).containsExactly(
                "sites.yaml:14:38: isolation.allow[0].to: unknown group \"dbs\", did you mean \"db\"?",
                "sites.yaml:15:30: isolation.allow[1].from[0]: unknown group \"ops\" (groups: any, unlisted, db, soa)");
        assertThat(load(isolation).model()).isEmpty();
    }

    @Test
    void rejectsAnEmptyGroupWrittenAsEmptyMappingOrAsNothing() {
        assertThat(messages("""
                isolation:
                  groups:
                    ops: {}
                    batch:
                    db: { roles: [db] }
                """)).containsExactly(
                "sites.yaml:11:10: isolation.groups.ops: empty group \"ops\" (give hosts, roles, sites, cidrs or clusters)",
                "sites.yaml:12:11: isolation.groups.batch: empty group \"batch\" (give hosts, roles, sites, cidrs or clusters)");
    }

    @Test
    void warnsAboutARuleAnEarlierRuleShadowsAndAnAllowADenyShadowsNamingTheEarlierRule() {
        String isolation = """
                isolation:
                  groups:
                    db: { roles: [db] }
                    soa: { clusters: [soa_cluster] }
                  deny:
                    - { name: no-t3-to-db, from: any, to: db, l7: [t3] }
                  allow:
                    - { name: soa-db, from: soa, to: db, categories: [DB] }
                    - { name: app-db, from: soa, to: db, categories: [DB], ports: [1521] }
                    - { name: t3-db, from: soa, to: db, l7: [t3] }
                """;
        assertThat(messages(isolation)).containsExactly(
                "sites.yaml:17:7: warning: isolation.allow[1]: rule \"app-db\" never matches: isolation.allow[0] (\"soa-db\") matches every flow it would",
                "sites.yaml:18:7: warning: isolation.allow[2]: rule \"t3-db\" never allows: isolation.deny[0] (\"no-t3-to-db\") denies every flow it would");
        assertThat(load(isolation).model()).as("warnings do not stop the model").isPresent();
    }

    @Test
    void suggestsTheKeyMeantForABadKeyOfTheBlockAGroupAndARuleWithoutKnockOnErrors() {
        assertThat(messages("""
                isolation:
                  scpoe: all
                  groups:
                    db: { role: [db] }
                  allow:
                    - { name: app-db, from: any, to: db, port: [1521] }
                """)).containsExactly(
                "sites.yaml:10:3: isolation.scpoe: unknown key, did you mean \"scope\"?",
                "sites.yaml:12:11: isolation.groups.db.role: unknown key, did you mean \"roles\"?",
                "sites.yaml:14:42: isolation.allow[0].port: unknown key, did you mean \"ports\"?");
    }

    @Test
    void rejectsBadScopeDefaultCategoryPortProtoAndL7AndAMissingName() {
        assertThat(messages("""
                isolation:
                  scope: cross
                  default: reject
                  groups:
                    db: { roles: [db] }
                  allow:
                    - { name: a, from: any, to: db, categories: [DATABASE] }
                    - { name: b, from: any, to: db, ports: [70001] }
                    - { name: c, from: any, to: db, proto: [tcpp] }
                    - { name: d, from: any, to: db, l7: [oracle] }
                    - { from: any, to: db }
                """)).containsExactly(
                "sites.yaml:10:10: isolation.scope: \"cross\" is not a scope (cross-site or all)",
                "sites.yaml:11:12: isolation.default: \"reject\" is not a default (deny or allow)",
                "sites.yaml:15:50: isolation.allow[0].categories[0]: \"DATABASE\" is not a category (DB, CLUSTER, JMS, COHERENCE, FRONTEND, ADMIN, OTHER, UNKNOWN)",
                "sites.yaml:16:45: isolation.allow[1].ports[0]: \"70001\" is not a port (1-65535)",
                "sites.yaml:17:45: isolation.allow[2].proto[0]: \"tcpp\" is not a protocol (tcp, udp, icmp, icmpv6 or 0-255)",
                "sites.yaml:18:42: isolation.allow[3].l7[0]: \"oracle\" is not an L7 protocol, did you mean \"oracle-tns\"?",
                "sites.yaml:19:7: isolation.allow[4]: missing key \"name\"");
    }

    @Test
    void rejectsADuplicateRuleNameAcrossDenyAndAllowNamingTheFirst() {
        assertThat(messages("""
                isolation:
                  groups:
                    db: { roles: [db] }
                  deny:
                    - { name: db-rule, from: unlisted, to: db }
                  allow:
                    - { name: db-rule, from: any, to: db, ports: [1521] }
                """)).containsExactly(
                "sites.yaml:15:7: isolation.allow[0]: duplicate rule name \"db-rule\" (also isolation.deny[0])");
    }

    @Test
    void rejectsTheBuiltInGroupNamesAndHostsTheModelDoesNotList() {
        assertThat(messages("""
                isolation:
                  groups:
                    any: { roles: [db] }
                    unlisted: { roles: [db] }
                    soa: { hosts: [wls1, wls4, 10.2.0.20, 10.9.9.9] }
                """)).containsExactly(
                "sites.yaml:11:5: isolation.groups.any: \"any\" is a built-in group (every address): choose another name",
                "sites.yaml:12:5: isolation.groups.unlisted: \"unlisted\" is a built-in group (addresses in a site that no host entry lists): choose another name",
                "sites.yaml:13:26: isolation.groups.soa.hosts[1]: \"wls4\" is not a listed host, did you mean \"wls1\"?",
                "sites.yaml:13:43: isolation.groups.soa.hosts[3]: \"10.9.9.9\" is not a listed host (address or name of a hosts entry)");
    }

    @Test
    void rejectsTheSixtyThirdGroup() {
        StringBuilder isolation = new StringBuilder("isolation:\n  groups:\n");
        for (int i = 0; i < 63; i++) {
            isolation.append("    g").append(i).append(": { roles: [db] }\n");
        }
        assertThat(messages(isolation.toString())).containsExactly(
                "sites.yaml:73:5: isolation.groups.g62: more than 62 groups");
        isolation.setLength(isolation.lastIndexOf("    g62"));
        assertThat(load(isolation.toString()).model().flatMap(SiteModel::isolation).map(p -> p.groups().size()))
                .contains(62);
    }

    @Test
    void readsTheIssuesExampleWithItsDefaults() {
        SiteModel model = load("""
                isolation:
                  groups:
                    soa: { hosts: [wls1, 10.2.0.20] }
                    db: { roles: [db] }
                    r1: { sites: [region1] }
                    ops: { cidrs: [10.9.0.0/24] }
                    osb: { clusters: [soa_cluster] }
                  deny:
                    - { name: no-t3-to-db, from: any, to: db, l7: [t3] }
                  allow:
                    - { name: app-db, from: soa, to: db, categories: [DB], ports: [1521], l7: [oracle-tns] }
                """).model().orElseThrow();
        IsolationPolicy p = model.isolation().orElseThrow();

        assertThat(p.scope()).isEqualTo(IsolationPolicy.Scope.CROSS_SITE);
        assertThat(p.defaultAction()).isEqualTo(IsolationPolicy.DefaultAction.DENY);
        assertThat(p.groups()).extracting(g -> g.name()).containsExactly("soa", "db", "r1", "ops", "osb");
        assertThat(p.group("soa").orElseThrow().hosts()).containsExactly("10.1.0.21", "10.2.0.20");
        assertThat(p.rule("app-db").orElseThrow().origin()).isEqualTo("sites.yaml:19:7");
    }

    private static final String POLICY = """
            isolation:
              scope: all
              groups:
                soa: { hosts: [wls1, wls3] }
                db: { roles: [db] }
              deny:
                - { name: no-t3-to-db, from: any, to: db, l7: [t3] }
              allow:
                - { name: app-db, from: soa, to: db, ports: [1521, 1522] }
                - { name: soa-cluster, from: soa, to: soa, categories: [CLUSTER, JMS] }
            """;

    private static String version(String isolation) {
        return load(isolation).model().flatMap(SiteModel::isolation).orElseThrow().version();
    }

    @Test
    void policyVersionIgnoresFormattingCommentsAndTheOrderOfGroupsAndOfValues() {
        String reformatted = """
                isolation:   # the policy
                  groups:
                    db:
                      roles: [db]
                    soa: {hosts: [wls3, wls1]}
                  allow:
                    - name: app-db
                      to: db
                      from: soa
                      ports: [1522, 1521]
                    - { name: soa-cluster, from: [soa], to: soa, categories: [JMS, CLUSTER] }
                  deny:
                    - { name: no-t3-to-db, from: any, to: db, l7: [t3] }
                  scope: all
                """;
        assertThat(version(POLICY)).startsWith("sha256:").hasSize("sha256:".length() + 64);
        assertThat(version(reformatted)).isEqualTo(version(POLICY));
    }

    @Test
    void policyVersionChangesWithTheOrderOfRulesAndWithTheScope() {
        String swapped = POLICY.replace(
                "    - { name: app-db, from: soa, to: db, ports: [1521, 1522] }\n"
                        + "    - { name: soa-cluster, from: soa, to: soa, categories: [CLUSTER, JMS] }\n",
                "    - { name: soa-cluster, from: soa, to: soa, categories: [CLUSTER, JMS] }\n"
                        + "    - { name: app-db, from: soa, to: db, ports: [1521, 1522] }\n");
        assertThat(swapped).isNotEqualTo(POLICY);
        assertThat(version(swapped)).isNotEqualTo(version(POLICY));
        assertThat(version(POLICY.replace("scope: all", "scope: cross-site"))).isNotEqualTo(version(POLICY));
    }

    @Test
    void siteModelVersionFollowsThePolicy() {
        SiteModel with = load(POLICY).model().orElseThrow();
        SiteModel without = SiteModelLoader.parse("sites.yaml", MODEL).model().orElseThrow();
        SiteModel swapped = load(POLICY.replace("scope: all", "scope: cross-site")).model().orElseThrow();

        assertThat(with.version()).isNotEqualTo(without.version()).isNotEqualTo(swapped.version());
    }
}
