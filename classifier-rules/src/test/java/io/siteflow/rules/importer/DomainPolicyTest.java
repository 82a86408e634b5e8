package io.siteflow.rules.importer;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.isolation.IsolationDecision;
import io.siteflow.rules.isolation.IsolationEvaluator;
import io.siteflow.rules.isolation.NearestAllow;
import io.siteflow.rules.load.Diagnostic;
import io.siteflow.rules.load.LoadResult;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.SiteModel;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The block {@code sites import --isolation} writes, decided against traffic: what the domain configured is
 * allowed, drift from it (T3 on the database port, JMS between clusters, an unlisted peer) violates.
 */
class DomainPolicyTest {
    private static final String SOA3 = "10.2.0.20";
    private static final String SOA1 = "10.1.0.20";
    private static final String DB1 = "10.1.0.10";

    @Test
    void whatTheDomainConfiguredIsAllowedAndDriftViolates() throws Exception {
        Findings findings = new Findings();
        ImportOptions o = SoaDomain.options(findings);
        SiteImport.Result r = SiteImport.fromConfigXml(SoaDomain.CONFIG_XML,
                new ImportOptions(o.sites(), o.frontends(), o.hosts(), o.tnsNames(), true), findings);
        IsolationEvaluator e = new IsolationEvaluator(new Classifier(load(r.yaml())));

        assertThat(decide(e, tcp(SOA3, DB1, 1521, "oracle-tns"))).isEqualTo("ALLOWED soa_cluster-to-db");
        assertThat(decide(e, tcp(SOA3, SOA1, 8011, "t3-jms"))).isEqualTo("ALLOWED soa_cluster-jms");
        assertThat(decide(e, tcp(SOA3, SOA1, 7001, "t3-jms"))).isEqualTo("ALLOWED soa_cluster-jms");
        assertThat(decide(e, tcp(SOA3, SOA1, 7001, "t3"))).isEqualTo("ALLOWED soa_cluster-cluster");
        assertThat(decide(e, tcp("10.2.0.30", "10.1.0.30", 8001, "t3"))).isEqualTo("ALLOWED osb_cluster-cluster");
        assertThat(decide(e, tcp("10.2.0.30", "10.1.0.13", 1523, "oracle-tns"))).isEqualTo("ALLOWED osb_cluster-to-db");
        assertThat(decide(e, tcp("10.1.0.5", SOA3, 7001, "t3"))).isEqualTo("ALLOWED admin-to-soa_cluster");
        assertThat(decide(e, tcp(SOA3, "10.1.0.5", 9002, "tls"))).isEqualTo("ALLOWED soa_cluster-to-admin");

        assertThat(decide(e, tcp(SOA3, DB1, 1521, "t3"))).isEqualTo("UNLISTED (violates)");
        assertThat(nearest(e, tcp(SOA3, DB1, 1521, "t3"))).isEqualTo(
                new NearestAllow("soa_cluster-to-db", List.of("l7: t3 not in [oracle-tns]")));
        assertThat(decide(e, tcp("10.2.0.30", SOA1, 8011, "t3-jms"))).isEqualTo("UNLISTED (violates)");
        assertThat(decide(e, tcp(SOA3, "10.1.0.13", 1523, "oracle-tns"))).isEqualTo("UNLISTED (violates)");
        assertThat(decide(e, tcp(SOA3, "10.1.0.99", 22, null))).isEqualTo("UNLISTED (violates)");
    }

    @Test
    void aServerOfNoClusterIsAGroupByNameAndAnAddressOfTwoClustersKeepsTheFirstWithAWarning() {
        Origin at = new Origin("config.xml", 3, 5);
        Domain d = new Domain("d", "admin", 0, List.of(
                server("admin", "", "10.1.0.5", 7001, at),
                server("solo", "", "10.2.0.40", 7003, at),
                server("b1", "c2", "10.1.0.50", 8001, new Origin("config.xml", 9, 5)),
                server("a1", "c1", "10.1.0.50", 7001, at),
                server("a2", "c1", "10.2.0.50", 7001, at)),
                List.of(new Domain.Cluster("c1", ""), new Domain.Cluster("c2", "")), List.of(),
                List.of(new Domain.DataSource("ds", "jdbc:postgresql://10.1.0.60:5432/x", List.of("solo", "c2"), at)),
                List.of());
        Findings findings = new Findings();

        SiteImport.Result r = SiteImport.finish(Optional.of(d), new ImportOptions(SoaDomain.twoRegions(), List.of(),
                HostsFile.none(), TnsNames.none(), true), findings);

        assertThat(r.diagnostics()).map(Diagnostic::toString).containsExactly("config.xml:3:5: warning: server a1: "
                + "listen-address 10.1.0.50 is also a listen address of cluster c2: the host is written with cluster c1");
        assertThat(r.yaml()).contains("  - { address: 10.1.0.50, name: a1, role: app-server, cluster: c1 }\n")
                .contains("  - { address: 10.2.0.40, name: solo, role: app-server }\n");
        assertThat(r.yaml().substring(r.yaml().indexOf("isolation:\n"))).isEqualTo("""
                isolation:
                  scope: cross-site
                  default: deny
                  groups:
                    c1: { clusters: [c1] }
                    admin: { roles: [admin] }
                    app-server: { hosts: [solo] }
                    db: { roles: [db] }
                  allow:
                    # cluster c1 (a1, a2): listen, SSL and cluster channel ports
                    - { name: c1-cluster, from: c1, to: c1, categories: [CLUSTER], ports: [7001], proto: [tcp] }
                    # data source ds targeted to app-server: listeners 10.1.0.60:5432
                    - { name: app-server-to-db, from: app-server, to: db, categories: [DB], ports: [5432], proto: [tcp], l7: [postgresql] }
                    # admin server admin to c1 (a1, a2): listen, SSL and admin channel ports, administration port
                    - { name: admin-to-c1, from: admin, to: c1, ports: [7001], proto: [tcp] }
                    # c1 to admin server admin: its listen, SSL and admin channel ports, administration port
                    - { name: c1-to-admin, from: c1, to: admin, ports: [7001], proto: [tcp] }
                    # admin server admin to app-server (solo): listen, SSL and admin channel ports, administration port
                    - { name: admin-to-app-server, from: admin, to: app-server, ports: [7003], proto: [tcp] }
                    # app-server to admin server admin: its listen, SSL and admin channel ports, administration port
                    - { name: app-server-to-admin, from: app-server, to: admin, ports: [7001], proto: [tcp] }
                """);
        assertThat(SiteModelLoader.parse("sites.yaml", r.yaml()).diagnostics()).isEmpty();
    }

    private static Domain.Server server(String name, String cluster, String address, int port, Origin at) {
        return new Domain.Server(name, cluster, "", address, port, 0, 0, List.of(), at);
    }

    private static SiteModel load(String yaml) {
        LoadResult r = SiteModelLoader.parse("sites.yaml", yaml);
        assertThat(r.diagnostics()).isEmpty();
        return r.model().orElseThrow();
    }

    private static FlowRecord tcp(String src, String dst, int port, String l7) {
        return FlowRecord.builder().id("t:1").agent("a").iface("i").time(1_000, 2_000)
                .endpoints(6, src, 40_000, dst, port).forward(100, 1, 140, 0x1b).reverse(100, 1, 140, 0x1b).l7(l7)
                .build();
    }

    private static String decide(IsolationEvaluator e, FlowRecord r) {
        Classification c = e.classifier().classify(r);
        IsolationDecision d = e.decide(Classifier.flowOf(r), c).orElseThrow();
        return d.decision() + (d.rule().isEmpty() ? "" : " " + d.rule()) + (d.violates() ? " (violates)" : "");
    }

    private static NearestAllow nearest(IsolationEvaluator e, FlowRecord r) {
        return e.nearestAllow(Classifier.flowOf(r), e.classifier().classify(r)).orElseThrow();
    }
}
