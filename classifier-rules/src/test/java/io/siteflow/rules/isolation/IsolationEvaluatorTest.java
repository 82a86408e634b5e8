package io.siteflow.rules.isolation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.classify.FlowSyntax;
import io.siteflow.rules.load.LoadResult;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.Flow;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The truth table of {@link IsolationEvaluator#decide}: deny before allow, both defaults, {@code any} and
 * {@code unlisted}, scope, L7, ports, proto, categories, groups by hosts (name and address), roles, clusters, cidrs
 * and sites, several groups per address; and the nearest allow rule's failed conditions.
 */
class IsolationEvaluatorTest {
    static final String MODEL = """
            defaults: none
            sites:
              region1: { cidrs: [10.1.0.0/16] }
              region2: { cidrs: [10.2.0.0/16] }
              dc3: { cidrs: [10.3.0.0/16] }
            hosts:
              - { address: 10.1.0.10, name: db1, role: db }
              - { address: 10.1.0.21, name: wls1, role: app-server, cluster: soa_cluster }
              - { address: 10.1.0.22, name: wls2, role: app-server, cluster: soa_cluster }
              - { address: 10.2.0.20, name: wls3, role: app-server, cluster: soa_cluster }
              - { address: 10.2.0.30, name: osb1, role: app-server, cluster: osb_cluster }
            rules:
              - { name: oracle-net, category: DB, l7: [oracle-tns] }
              - { name: t3, category: CLUSTER, l7: [t3] }
              - { name: oracle-ports, category: DB, ports: [1521, 1522] }
              - { name: jms, category: JMS, ports: [8011] }
              - { name: ssh, category: ADMIN, ports: [22] }
            isolation:
              scope: SCOPE
              default: DEFAULT
              groups:
                soa: { hosts: [wls1, 10.2.0.20] }
                db: { roles: [db] }
                apps: { roles: [app-server] }
                osb: { clusters: [osb_cluster] }
                ops: { cidrs: [10.2.9.0/24] }
                r3: { sites: [dc3] }
              deny:
                - { name: no-t3-to-db, from: any, to: db, l7: [t3] }
                - { name: no-unlisted-db, from: unlisted, to: db }
              allow:
                - { name: app-db, from: soa, to: db, categories: [DB], ports: [1521], l7: [oracle-tns] }
                - { name: soa-cluster, from: soa, to: soa, categories: [CLUSTER, JMS] }
                - { name: osb-db, from: osb, to: db, categories: [DB] }
                - { name: ops-ssh, from: ops, to: any, ports: [22], proto: [tcp] }
                - { name: dc3-jms, from: r3, to: apps, ports: [8011] }
            """;

    static IsolationEvaluator evaluator(String scope, String defaultAction) {
        LoadResult r = SiteModelLoader.parse("sites.yaml", MODEL.replace("SCOPE", scope)
                .replace("DEFAULT", defaultAction));
        assertThat(r.errors()).isEmpty();
        return new IsolationEvaluator(new Classifier(r.model().orElseThrow()));
    }

    /** {@code flow => DECISION rule (violates|ok) from-groups -> to-groups}, or {@code => out of scope}. */
    private static String row(IsolationEvaluator e, String flow) {
        Flow f = FlowSyntax.parse(flow);
        Optional<IsolationDecision> d = e.decide(f, e.classifier().classify(f));
        return flow + " => " + d.map(x -> x.decision() + " " + (x.rule().isEmpty() ? "-" : x.rule()) + " "
                + (x.violates() ? "violates" : "ok") + " " + e.groupNames(x.fromGroups()) + " -> "
                + e.groupNames(x.toGroups())).orElse("out of scope");
    }

    private static List<String> table(IsolationEvaluator e, String... flows) {
        List<String> out = new ArrayList<>();
        for (String f : flows) {
            out.add(row(e, f));
        }
        return out;
    }

    @Test
    void decidesCrossSiteFlowsDenyFirstThenAllowThenUnlistedUnderDefaultDeny() {
        IsolationEvaluator e = evaluator("cross-site", "deny");
        assertThat(table(e,
                "tcp 10.2.0.20:40000 -> 10.1.0.10:1521 l7=oracle-tns",
                "tcp 10.2.0.20:40000 -> 10.1.0.10:1521 l7=t3",
                "tcp 10.2.0.20:40000 -> 10.1.0.10:1521",
                "tcp 10.2.0.20:40000 -> 10.1.0.10:1522 l7=oracle-tns",
                "udp 10.2.0.20:40000 -> 10.1.0.10:1521",
                "tcp 10.2.0.20:40000 -> 10.1.0.21:8011",
                "tcp 10.2.0.20:40000 -> 10.1.0.21:7001 l7=t3",
                "tcp 10.2.0.20:40000 -> 10.1.0.21:22",
                "tcp 10.2.0.20:40000 -> 10.1.0.22:8011",
                "tcp 10.2.0.99:40000 -> 10.1.0.10:1521 l7=oracle-tns",
                "tcp 10.2.0.30:40000 -> 10.1.0.10:1521 l7=oracle-tns",
                "tcp 10.2.9.5:50000 -> 10.1.0.21:22",
                "udp 10.2.9.5:50000 -> 10.1.0.21:22",
                "tcp 10.3.0.5:50000 -> 10.2.0.30:8011",
                "tcp 10.3.0.5:50000 -> 10.2.0.30:8012",
                "tcp 10.1.0.21:40000 -> 10.1.0.10:1521 l7=oracle-tns",
                "tcp 192.168.1.5:40000 -> 10.1.0.10:1521 l7=oracle-tns"))
                .containsExactly(
                        "tcp 10.2.0.20:40000 -> 10.1.0.10:1521 l7=oracle-tns => ALLOWED app-db ok [any, soa, apps] -> [any, db]",
                        "tcp 10.2.0.20:40000 -> 10.1.0.10:1521 l7=t3 => DENIED no-t3-to-db violates [any, soa, apps] -> [any, db]",
                        "tcp 10.2.0.20:40000 -> 10.1.0.10:1521 => UNLISTED - violates [any, soa, apps] -> [any, db]",
                        "tcp 10.2.0.20:40000 -> 10.1.0.10:1522 l7=oracle-tns => UNLISTED - violates [any, soa, apps] -> [any, db]",
                        "udp 10.2.0.20:40000 -> 10.1.0.10:1521 => UNLISTED - violates [any, soa, apps] -> [any, db]",
                        "tcp 10.2.0.20:40000 -> 10.1.0.21:8011 => ALLOWED soa-cluster ok [any, soa, apps] -> [any, soa, apps]",
                        "tcp 10.2.0.20:40000 -> 10.1.0.21:7001 l7=t3 => ALLOWED soa-cluster ok [any, soa, apps] -> [any, soa, apps]",
                        "tcp 10.2.0.20:40000 -> 10.1.0.21:22 => UNLISTED - violates [any, soa, apps] -> [any, soa, apps]",
                        "tcp 10.2.0.20:40000 -> 10.1.0.22:8011 => UNLISTED - violates [any, soa, apps] -> [any, apps]",
                        "tcp 10.2.0.99:40000 -> 10.1.0.10:1521 l7=oracle-tns => DENIED no-unlisted-db violates [any, unlisted] -> [any, db]",
                        "tcp 10.2.0.30:40000 -> 10.1.0.10:1521 l7=oracle-tns => ALLOWED osb-db ok [any, apps, osb] -> [any, db]",
                        "tcp 10.2.9.5:50000 -> 10.1.0.21:22 => ALLOWED ops-ssh ok [any, unlisted, ops] -> [any, soa, apps]",
                        "udp 10.2.9.5:50000 -> 10.1.0.21:22 => UNLISTED - violates [any, unlisted, ops] -> [any, soa, apps]",
                        "tcp 10.3.0.5:50000 -> 10.2.0.30:8011 => ALLOWED dc3-jms ok [any, unlisted, r3] -> [any, apps, osb]",
                        "tcp 10.3.0.5:50000 -> 10.2.0.30:8012 => UNLISTED - violates [any, unlisted, r3] -> [any, apps, osb]",
                        "tcp 10.1.0.21:40000 -> 10.1.0.10:1521 l7=oracle-tns => out of scope",
                        "tcp 192.168.1.5:40000 -> 10.1.0.10:1521 l7=oracle-tns => out of scope");
    }

    @Test
    void scopeAllJudgesSameSiteFlowsButNeverAnEndOutsideEverySite() {
        IsolationEvaluator e = evaluator("all", "deny");
        assertThat(table(e,
                "tcp 10.1.0.21:40000 -> 10.1.0.10:1521 l7=oracle-tns",
                "tcp 10.1.0.21:40000 -> 10.1.0.10:1521 l7=t3",
                "tcp 10.1.0.22:40000 -> 10.1.0.10:1521 l7=oracle-tns",
                "tcp 192.168.1.5:40000 -> 10.1.0.10:1521 l7=oracle-tns",
                "tcp 10.1.0.10:40000 -> 192.168.1.5:443"))
                .containsExactly(
                        "tcp 10.1.0.21:40000 -> 10.1.0.10:1521 l7=oracle-tns => ALLOWED app-db ok [any, soa, apps] -> [any, db]",
                        "tcp 10.1.0.21:40000 -> 10.1.0.10:1521 l7=t3 => DENIED no-t3-to-db violates [any, soa, apps] -> [any, db]",
                        "tcp 10.1.0.22:40000 -> 10.1.0.10:1521 l7=oracle-tns => UNLISTED - violates [any, apps] -> [any, db]",
                        "tcp 192.168.1.5:40000 -> 10.1.0.10:1521 l7=oracle-tns => out of scope",
                        "tcp 10.1.0.10:40000 -> 192.168.1.5:443 => out of scope");
    }

    @Test
    void defaultAllowLeavesOnlyDenyRulesViolating() {
        IsolationEvaluator e = evaluator("cross-site", "allow");
        assertThat(table(e,
                "tcp 10.2.0.20:40000 -> 10.1.0.10:1521",
                "tcp 10.2.0.20:40000 -> 10.1.0.10:1521 l7=t3",
                "tcp 10.2.0.99:40000 -> 10.1.0.10:1521 l7=oracle-tns",
                "tcp 10.2.0.20:40000 -> 10.1.0.10:1521 l7=oracle-tns"))
                .containsExactly(
                        "tcp 10.2.0.20:40000 -> 10.1.0.10:1521 => UNLISTED - ok [any, soa, apps] -> [any, db]",
                        "tcp 10.2.0.20:40000 -> 10.1.0.10:1521 l7=t3 => DENIED no-t3-to-db violates [any, soa, apps] -> [any, db]",
                        "tcp 10.2.0.99:40000 -> 10.1.0.10:1521 l7=oracle-tns => DENIED no-unlisted-db violates [any, unlisted] -> [any, db]",
                        "tcp 10.2.0.20:40000 -> 10.1.0.10:1521 l7=oracle-tns => ALLOWED app-db ok [any, soa, apps] -> [any, db]");
    }

    @Test
    void nearestAllowNamesTheRuleWithFewestFailedConditionsAndEachFailure() {
        IsolationEvaluator e = evaluator("cross-site", "deny");

        assertThat(nearest(e, "tcp 10.2.0.20:40000 -> 10.1.0.10:1522 l7=oracle-tns"))
                .contains(new NearestAllow("app-db", List.of("ports: 1522 not in [1521]")));
        assertThat(nearest(e, "tcp 10.2.0.20:40000 -> 10.1.0.10:1521"))
                .contains(new NearestAllow("app-db", List.of("l7: none detected not in [oracle-tns]")));
        assertThat(nearest(e, "tcp 10.2.0.20:40000 -> 10.1.0.10:1521 l7=t3"))
                .as("app-db fails two conditions (categories, l7), soa-cluster one")
                .contains(new NearestAllow("soa-cluster", List.of("to: 10.1.0.10 (db) not in [soa]")));
        assertThat(nearest(e, "udp 10.2.9.5:50000 -> 10.1.0.21:22"))
                .contains(new NearestAllow("ops-ssh", List.of("proto: udp not in [tcp]")));
        assertThat(nearest(e, "tcp 10.2.0.99:40000 -> 10.1.0.10:1521 l7=oracle-tns"))
                .contains(new NearestAllow("app-db", List.of("from: 10.2.0.99 (unlisted) not in [soa]")));
    }

    @Test
    void aModelWithoutAPolicyHasNoEvaluatorButAnEmptyOneForProposals() {
        Classifier c = new Classifier(SiteModelLoader.parse("sites.yaml", MODEL.substring(0,
                MODEL.indexOf("isolation:"))).model().orElseThrow());

        assertThat(IsolationEvaluator.of(c)).isEmpty();
        assertThatThrownBy(() -> new IsolationEvaluator(c)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the site model has no isolation policy");
        assertThat(row(IsolationEvaluator.orEmpty(c), "tcp 10.2.0.20:40000 -> 10.1.0.10:1521 l7=oracle-tns"))
                .isEqualTo("tcp 10.2.0.20:40000 -> 10.1.0.10:1521 l7=oracle-tns => UNLISTED - violates [any] -> [any]");
    }

    private static Optional<NearestAllow> nearest(IsolationEvaluator e, String flow) {
        Flow f = FlowSyntax.parse(flow);
        return e.nearestAllow(f, e.classifier().classify(f));
    }
}
