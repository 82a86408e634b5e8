package io.siteflow.rules.isolation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.rules.load.LoadResult;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.IsolationPolicy;
import io.siteflow.rules.model.SiteModel;
import java.util.List;
import org.junit.jupiter.api.Test;

class IsolationProposalTest {
    private static final SiteModel MODEL = ProposalFixture.model(ProposalFixture.MODEL);

    @Test
    void proposesOneRulePerGroupPairCategoryPortAndProtocolWithItsEvidence() {
        String block = IsolationProposal.propose(ProposalFixture.proposalInputs(MODEL, ProposalFixture.traffic()), 1);

        assertThat(block).isEqualTo("""
                # isolation policy proposed by siteflow from 9 edges seen 2025-11-24T16:00:00Z to 2025-11-24T16:00:10.500Z: it allows exactly that traffic (docs/RULES.md, "Proposing a policy")
                isolation:
                  scope: cross-site
                  default: deny
                  groups:
                    soa_cluster: { clusters: [soa_cluster] }
                    osb_cluster: { clusters: [osb_cluster] }
                    db: { roles: [db] }
                    admin: { roles: [admin] }
                    app-server: { hosts: [batch3] }
                  allow:
                    # 14,000 bytes, 2 flows, first 2025-11-24T16:00:01Z, last 2025-11-24T16:00:02.500Z
                    - { name: soa_cluster-to-soa_cluster-CLUSTER-7001, from: soa_cluster, to: soa_cluster, categories: [CLUSTER], ports: [7001], proto: [tcp], l7: [t3] }
                    # 4,000 bytes, 1 flow, first 2025-11-24T16:00:03Z, last 2025-11-24T16:00:03.500Z
                    - { name: soa_cluster-to-soa_cluster-JMS-8011, from: soa_cluster, to: soa_cluster, categories: [JMS], ports: [8011], proto: [tcp], l7: [t3-jms] }
                    # 2,000 bytes, 1 flow, first 2025-11-24T16:00:04Z, last 2025-11-24T16:00:04.500Z
                    - { name: soa_cluster-to-soa_cluster-UNKNOWN-8088-udp, from: soa_cluster, to: soa_cluster, categories: [UNKNOWN], ports: [8088], proto: [udp] }
                    # 160,000 bytes, 2 flows, first 2025-11-24T16:00:00Z, last 2025-11-24T16:00:05.500Z
                    - { name: soa_cluster-to-db-DB-1521, from: soa_cluster, to: db, categories: [DB], ports: [1521], proto: [tcp], l7: [oracle-tns] }
                    # 1,800 bytes, 2 flows, first 2025-11-24T16:00:09Z, last 2025-11-24T16:00:10.500Z
                    - { name: osb_cluster-to-soa_cluster-CLUSTER-8001, from: osb_cluster, to: soa_cluster, categories: [CLUSTER], ports: [8001], proto: [tcp], l7: [http] }
                    # 1,400 bytes, 1 flow, first 2025-11-24T16:00:06Z, last 2025-11-24T16:00:06.500Z
                    - { name: admin-to-soa_cluster-CLUSTER-7001, from: admin, to: soa_cluster, categories: [CLUSTER], ports: [7001], proto: [tcp], l7: [t3] }
                    # 18,000 bytes, 1 flow, first 2025-11-24T16:00:07Z, last 2025-11-24T16:00:07.500Z
                    - { name: app-server-to-db-DB-1521, from: app-server, to: db, categories: [DB], ports: [1521], proto: [tcp], l7: [oracle-tns] }
                    # 1,200 bytes, 1 flow, first 2025-11-24T16:00:08Z, last 2025-11-24T16:00:08.500Z
                    - { name: unlisted-to-db-DB-1521, from: unlisted, to: db, categories: [DB], ports: [1521], proto: [tcp] }
                """);
    }

    @Test
    void theProposalLoadsWithItsModelWithoutADiagnostic() {
        String block = IsolationProposal.propose(ProposalFixture.proposalInputs(MODEL, ProposalFixture.traffic()), 1);

        LoadResult r = SiteModelLoader.parse("sites.yaml", IsolationProposal.withBlock(ProposalFixture.MODEL, block));

        assertThat(r.diagnostics()).isEmpty();
        IsolationPolicy p = r.model().orElseThrow().isolation().orElseThrow();
        assertThat(p.allow()).extracting(io.siteflow.rules.model.IsolationRule::name).containsExactly(
                "soa_cluster-to-soa_cluster-CLUSTER-7001", "soa_cluster-to-soa_cluster-JMS-8011",
                "soa_cluster-to-soa_cluster-UNKNOWN-8088-udp", "soa_cluster-to-db-DB-1521",
                "osb_cluster-to-soa_cluster-CLUSTER-8001", "admin-to-soa_cluster-CLUSTER-7001",
                "app-server-to-db-DB-1521", "unlisted-to-db-DB-1521");
    }

    @Test
    void leavesOutEdgesWithFewerFlowsThanAskedAndCountsThem() {
        String block = IsolationProposal.propose(ProposalFixture.proposalInputs(MODEL, ProposalFixture.traffic()), 2);

        assertThat(block.lines().filter(l -> l.startsWith("    - ")).map(l -> l.substring(14, l.indexOf(','))))
                .containsExactly("soa_cluster-to-db-DB-1521", "osb_cluster-to-soa_cluster-CLUSTER-8001");
        assertThat(block).endsWith("""
                    - { name: osb_cluster-to-soa_cluster-CLUSTER-8001, from: osb_cluster, to: soa_cluster, categories: [CLUSTER], ports: [8001], proto: [tcp], l7: [http] }
                  # left out: 7 edges with fewer than 2 flows (40,600 bytes, 7 flows, first 2025-11-24T16:00:01Z, last 2025-11-24T16:00:08.500Z)
                """);
        assertThat(SiteModelLoader.parse("sites.yaml", IsolationProposal.withBlock(ProposalFixture.MODEL, block))
                .diagnostics()).isEmpty();
    }

    @Test
    void writesNoL7ConditionWhenTheEdgesOfARuleCarryDifferentL7() {
        // 7002: two edges of one rule, one T3, one HTTP: no l7 condition; T3 from wls1 to the database is inside
        // region1, out of the cross-site scope: not proposed
        String block = IsolationProposal.propose(ProposalFixture.proposalInputs(MODEL, List.of(
                ProposalFixture.tcp("10.2.0.20", "10.1.0.10", 1521, 1_000, 0, "oracle-tns"),
                ProposalFixture.tcp("10.1.0.21", "10.1.0.10", 1521, 1_000, 1, "t3"),
                ProposalFixture.tcp("10.2.0.20", "10.1.0.21", 7001, 1_000, 2, "t3"),
                ProposalFixture.tcp("10.2.0.20", "10.1.0.21", 7002, 1_000, 3, "t3"),
                ProposalFixture.tcp("10.1.0.21", "10.2.0.20", 7002, 1_000, 4, "http"))), 1);

        assertThat(block.lines().filter(l -> l.startsWith("    - "))).containsExactly(
                "    - { name: soa_cluster-to-soa_cluster-CLUSTER-7001, from: soa_cluster, to: soa_cluster, categories: [CLUSTER], ports: [7001], proto: [tcp], l7: [t3] }",
                "    - { name: soa_cluster-to-soa_cluster-CLUSTER-7002, from: soa_cluster, to: soa_cluster, categories: [CLUSTER], ports: [7002], proto: [tcp] }",
                "    - { name: soa_cluster-to-db-DB-1521, from: soa_cluster, to: db, categories: [DB], ports: [1521], proto: [tcp], l7: [oracle-tns] }");
    }

    @Test
    void proposesAnEmptyAllowListFromNoTraffic() {
        String block = IsolationProposal.propose(ProposalFixture.proposalInputs(MODEL, List.of()), 1);

        assertThat(block).startsWith("# isolation policy proposed by siteflow from 0 edges: it allows exactly that "
                + "traffic (docs/RULES.md, \"Proposing a policy\")\n").endsWith("  allow: []\n");
        LoadResult r = SiteModelLoader.parse("sites.yaml", IsolationProposal.withBlock(ProposalFixture.MODEL, block));
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.model().orElseThrow().isolation().orElseThrow().allow()).isEmpty();
    }

    @Test
    void withBlockReplacesTheOldBlockAndKeepsWhatFollowsIt() {
        String model = """
                sites:
                  region1: { cidrs: [10.1.0.0/16] }
                isolation:
                  scope: all
                  allow:
                    - { name: old, from: any, to: any }

                # the audited pairs
                audit:
                  - { server: wls1, remoteSite: region2 }
                """;

        assertThat(IsolationProposal.withBlock(model, "isolation:\n  allow: []\n")).isEqualTo("""
                sites:
                  region1: { cidrs: [10.1.0.0/16] }
                isolation:
                  allow: []

                # the audited pairs
                audit:
                  - { server: wls1, remoteSite: region2 }
                """);
        assertThat(IsolationProposal.withBlock("sites: {}", "isolation:\n  allow: []\n"))
                .isEqualTo("sites: {}\nisolation:\n  allow: []\n");
    }

    @Test
    void aClusterNamedLikeARoleOrABuiltInGroupGetsASuffixAndTheBlockStillLoads() {
        String model = """
                sites:
                  region1: { cidrs: [10.1.0.0/16] }
                  region2: { cidrs: [10.2.0.0/16] }
                hosts:
                  - { address: 10.1.0.10, name: db1, role: db }
                  - { address: 10.2.0.20, name: wls3, role: app-server, cluster: db }
                  - { address: 10.2.0.21, name: wls4, role: app-server, cluster: unlisted }
                  - { address: 10.2.0.22, name: "fd-host", role: "1521" }
                """;

        String block = IsolationProposal.propose(ProposalFixture.proposalInputs(ProposalFixture.model(model), List.of(
                ProposalFixture.tcp("10.2.0.20", "10.1.0.10", 1521, 1_000, 0, "oracle-tns"),
                ProposalFixture.tcp("10.2.0.21", "10.1.0.10", 1521, 1_000, 1, "oracle-tns"),
                ProposalFixture.tcp("10.2.0.22", "10.1.0.10", 1521, 1_000, 2, "oracle-tns"))), 1);

        assertThat(block).contains("""
                  groups:
                    db: { clusters: [db] }
                    unlisted-cluster: { clusters: [unlisted] }
                    db-role: { roles: [db] }
                    "1521": { roles: ["1521"] }
                """).contains(
                "- { name: db-to-db-role-DB-1521, from: db, to: db-role,",
                "- { name: unlisted-cluster-to-db-role-DB-1521, from: unlisted-cluster, to: db-role,",
                "- { name: 1521-to-db-role-DB-1521, from: \"1521\", to: db-role,");
        LoadResult r = SiteModelLoader.parse("sites.yaml", IsolationProposal.withBlock(model, block));
        assertThat(r.diagnostics()).isEmpty();
        assertThat(ProposalFixture.inputs(r.model().orElseThrow(), List.of(
                ProposalFixture.tcp("10.2.0.22", "10.1.0.10", 1521, 1_000, 2, "oracle-tns"))).edges())
                .extracting(IsolationEdge::rule).containsExactly("1521-to-db-role-DB-1521");
    }

    @Test
    void proposalInputsKeepAnEdgesRecordsOfEachCategoryAndL7Apart() {
        List<io.siteflow.model.FlowRecord> records = List.of(
                ProposalFixture.tcp("10.2.0.20", "10.1.0.10", 1521, 1_000, 0, "oracle-tns"),
                ProposalFixture.tcp("10.2.0.20", "10.1.0.10", 1521, 2_000, 1, null),
                ProposalFixture.tcp("10.2.0.20", "10.1.0.10", 1521, 4_000, 2, "oracle-tns"));

        IsolationInputs forProposal = ProposalFixture.proposalInputs(MODEL, records);
        IsolationInputs forCheck = ProposalFixture.inputs(MODEL, records);

        assertThat(forProposal.edges()).extracting(IsolationProposal::entryKey, IsolationEdge::bytes, IsolationEdge::flows)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("10.2.0.20|10.1.0.10|1521|6|DB|oracle-tns", 10_000L, 2L),
                        org.assertj.core.groups.Tuple.tuple("10.2.0.20|10.1.0.10|1521|6|DB|unknown", 4_000L, 1L));
        assertThat(forCheck.edges()).extracting(IsolationEdge::l7, IsolationEdge::bytes)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("oracle-tns", 14_000L));
        assertThat(IsolationProposal.propose(forProposal, 1)).contains(
                "# 14,000 bytes, 3 flows, first 2025-11-24T16:00:00Z, last 2025-11-24T16:00:02.500Z\n"
                + "    - { name: soa_cluster-to-db-DB-1521, from: soa_cluster, to: db, categories: [DB], ports: [1521], "
                + "proto: [tcp] }\n").startsWith("# isolation policy proposed by siteflow from 1 edge seen ");
        assertThat(IsolationProposal.propose(forProposal, 3)).contains("  allow:\n    # 14,000 bytes");
        assertThat(IsolationProposal.propose(forProposal, 4)).contains("  allow: []\n")
                .endsWith("  # left out: 1 edge with fewer than 4 flows (14,000 bytes, 3 flows, "
                        + "first 2025-11-24T16:00:00Z, last 2025-11-24T16:00:02.500Z)\n");
    }
}
