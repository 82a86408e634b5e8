package io.siteflow.synth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SyntheticClusterTest {
    private static final String HEAD = """
            threshold: 0.90
            minCrossBytes: 1000
            defaults: none
            sites:
              region1: { cidrs: [10.1.0.0/16] }
              region2: { cidrs: [10.2.0.0/16] }
            hosts:
              - { address: 10.1.0.10, name: db1, role: db }
              - { address: 10.1.0.20, name: wls1, role: app-server }
            """;
    private static final String RULES = """
            rules:
              - { name: oracle-ports, category: DB, ports: [1521] }
              - { name: t3, category: CLUSTER, ports: [7001] }
            """;

    @Test
    void auditsTheThreeServersOfTheRecords() {
        assertThat(SyntheticCluster.SITES).isEqualTo(HEAD + """
                  - { address: 10.2.0.20, name: wls3, role: app-server }
                  - { address: 10.2.0.21, name: wls4, role: app-server }
                  - { address: 10.2.0.22, name: wls5, role: app-server }
                """ + RULES);
    }

    @Test
    void putsOtherServersInRegion2InTheGivenOrder() {
        Map<String, String> servers = new LinkedHashMap<>();
        servers.put("10.2.1.1", "app250");
        servers.put("10.2.0.1", "app0");

        assertThat(SyntheticCluster.sites(servers)).isEqualTo(HEAD + """
                  - { address: 10.2.1.1, name: app250, role: app-server }
                  - { address: 10.2.0.1, name: app0, role: app-server }
                """ + RULES);
    }

    @Test
    void withoutServersHasNoAuditedServer() {
        assertThat(SyntheticCluster.sites(Map.of())).isEqualTo(HEAD + RULES);
    }
}
