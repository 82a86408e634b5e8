package io.siteflow.rules.importer;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.SiteModel;
import org.junit.jupiter.api.Test;

/** What {@link SitesDiff} reports between a model and the domain's model now. */
class SitesDiffTest {
    private static final String SITES = "sites:\n  a: { cidrs: [10.1.0.0/16] }\n  b: { cidrs: [10.2.0.0/16] }\n";

    @Test
    void reportsRoleChangesMovesAcrossSitesAndPortsByCategory() throws Exception {
        SiteModel was = model("""
                hosts:
                  - { address: 10.1.0.5, name: adm, role: admin }
                  - { address: 10.1.0.20, name: s1, role: app-server }
                  - { address: 10.2.0.100, name: lb, role: frontend }
                rules:
                  - { name: r1, category: JMS, ports: [8011, "9000-9010"], peerRoles: [app-server] }
                """);
        SiteModel now = model("""
                hosts:
                  - { address: 10.1.0.5, name: adm, role: app-server }
                  - { address: 10.2.0.20, name: s1, role: app-server }
                rules:
                  - { name: r1, category: CLUSTER, ports: [8011], peerRoles: [app-server] }
                """);

        assertThat(SitesDiff.between(was, now)).containsExactly(
                "~ host adm role: admin -> app-server",
                "~ host s1 moved: 10.1.0.20 (a) -> 10.2.0.20 (b)",
                "+ port 8011 CLUSTER",
                "- port 8011 JMS");
        assertThat(SitesDiff.between(was, was)).isEmpty();
    }

    @Test
    void reportsAServerThatChangedCluster() throws Exception {
        SiteModel was = model("""
                hosts:
                  - { address: 10.1.0.20, name: s1, role: app-server, cluster: soa_cluster }
                  - { address: 10.1.0.21, name: s2, role: app-server }
                  - { address: 10.1.0.22, name: s3, role: app-server, cluster: soa_cluster }
                """);
        SiteModel now = model("""
                hosts:
                  - { address: 10.1.0.20, name: s1, role: app-server, cluster: osb_cluster }
                  - { address: 10.1.0.21, name: s2, role: app-server, cluster: soa_cluster }
                  - { address: 10.1.0.22, name: s3, role: app-server }
                """);

        assertThat(SitesDiff.between(was, now)).containsExactly(
                "~ host s1 cluster: soa_cluster -> osb_cluster",
                "~ host s2 cluster: (none) -> soa_cluster",
                "~ host s3 cluster: soa_cluster -> (none)");
    }

    private static SiteModel model(String rest) throws Exception {
        return SiteModelLoader.parse("m.yaml", SITES + rest).orThrow();
    }
}
