package io.siteflow.rules.isolation;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.load.LoadResult;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.model.L7Protocol;
import io.siteflow.rules.model.IsolationPolicy;
import io.siteflow.rules.model.IsolationRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Propose, then decide the same traffic with the proposal: nothing violates; and without any one proposed rule,
 * exactly that rule's edges violate (as UNLISTED), the others stay allowed by the same rules.
 */
class ProposalRoundTripTest {
    /**
     * The fixture's traffic with more groups, ports and protocols: ICMP (no port), unlisted to unlisted, SSH, a
     * database host as a client, T3 inside soa_cluster on an edge whose L7 was not detected (its rule has no l7), a
     * later flow of the TNS edge whose L7 was not detected (the edge's rule has no l7 then).
     */
    private static List<FlowRecord> traffic() {
        List<FlowRecord> out = new ArrayList<>(ProposalFixture.traffic());
        out.add(ProposalFixture.flow(1, "10.1.0.5", "10.2.0.30", 0, 84, 11, null));
        out.add(ProposalFixture.tcp("10.2.0.99", "10.1.0.98", 22, 5_000, 12, null));
        out.add(ProposalFixture.tcp("10.1.0.5", "10.2.0.25", 22, 3_000, 13, null));
        out.add(ProposalFixture.tcp("10.1.0.10", "10.2.0.25", 5556, 800, 14, null));
        out.add(ProposalFixture.tcp("10.1.0.22", "10.2.0.20", 7001, 400, 15, null));
        out.add(ProposalFixture.flow(17, "10.2.0.20", "10.1.0.21", 8088, 1_000, 16, "coherence-tcmp"));
        out.add(ProposalFixture.tcp("10.2.0.20", "10.1.0.10", 1521, 700, 17, null));
        return out;
    }

    @Test
    void theProposalAllowsEveryEdgeItWasMadeFrom() {
        Map<String, String> rules = rulesOfEdges(ProposalFixture.MODEL);

        String proposed = proposedModel(ProposalFixture.MODEL);
        IsolationInputs decided = ProposalFixture.inputs(ProposalFixture.model(proposed), traffic());

        assertThat(decided.edges()).hasSize(15);
        assertThat(decided.edges()).allSatisfy(e -> {
            assertThat(e.decision()).as(e.key()).isEqualTo(Decision.ALLOWED);
            assertThat(e.violates()).isFalse();
        });
        assertThat(new TreeSet<>(rules.values())).hasSize(13);
        assertThat(rules).containsEntry("10.2.0.20|10.1.0.10|1521|6", "soa_cluster-to-db-DB-1521")
                .containsEntry("10.1.0.5|10.2.0.30|0|1", "admin-to-osb_cluster-UNKNOWN-icmp")
                .containsEntry("10.2.0.99|10.1.0.98|22|6", "unlisted-to-unlisted-UNKNOWN-22")
                .containsEntry("10.1.0.22|10.2.0.20|7001|6", "soa_cluster-to-soa_cluster-CLUSTER-7001")
                .containsEntry("10.1.0.21|10.2.0.20|7001|6", "soa_cluster-to-soa_cluster-CLUSTER-7001");
        IsolationPolicy policy = ProposalFixture.model(proposed).isolation().orElseThrow();
        assertThat(policy.rule("soa_cluster-to-soa_cluster-CLUSTER-7001").orElseThrow().l7()).isEmpty();
        // one edge, two flows: TNS, then one whose L7 was not detected
        assertThat(policy.rule("soa_cluster-to-db-DB-1521").orElseThrow().l7()).isEmpty();
        assertThat(policy.rule("soa_cluster-to-soa_cluster-JMS-8011").orElseThrow().l7())
                .containsExactly(L7Protocol.T3_JMS);
    }

    @Test
    void withoutAnyOneProposedRuleExactlyThatRulesEdgesViolate() {
        String proposed = proposedModel(ProposalFixture.MODEL);
        Map<String, String> ruleOfEdge = rulesOfEdges(ProposalFixture.MODEL);
        List<IsolationRule> rules = ProposalFixture.model(proposed).isolation().orElseThrow().allow();
        assertThat(rules).hasSize(13);

        for (IsolationRule removed : rules) {
            String without = withoutRule(proposed, removed.name());
            LoadResult r = SiteModelLoader.parse("sites.yaml", without);
            assertThat(r.diagnostics()).as(removed.name()).isEmpty();

            List<IsolationEdge> edges = ProposalFixture.inputs(r.model().orElseThrow(), traffic()).edges();

            Set<String> expected = ruleOfEdge.entrySet().stream().filter(e -> e.getValue().equals(removed.name()))
                    .map(Map.Entry::getKey).collect(Collectors.toCollection(TreeSet::new));
            assertThat(expected).as(removed.name()).isNotEmpty();
            Set<String> violating = edges.stream().filter(IsolationEdge::violates).map(IsolationEdge::key)
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(violating).as(removed.name()).isEqualTo(expected);
            assertThat(edges).filteredOn(IsolationEdge::violates).extracting(IsolationEdge::decision)
                    .containsOnly(Decision.UNLISTED);
            assertThat(edges).filteredOn(e -> !e.violates())
                    .allSatisfy(e -> assertThat(e.rule()).isEqualTo(ruleOfEdge.get(e.key())));
        }
    }

    @Test
    void aModelWithAPolicyIsProposedForFromItsOwnScopeWhateverItsGroups() {
        String old = ProposalFixture.MODEL + """
                isolation:
                  scope: all
                  groups:
                    r1: { sites: [region1] }
                  allow:
                    - { name: all-db, from: any, to: r1, categories: [DB] }
                """;
        String proposed = proposedModel(old);

        assertThat(proposed).doesNotContain("all-db").contains("  scope: all\n");
        IsolationInputs decided = ProposalFixture.inputs(ProposalFixture.model(proposed), traffic());
        assertThat(decided.edges()).hasSize(15).allSatisfy(e -> assertThat(e.decision()).isEqualTo(Decision.ALLOWED));
    }

    /** The model with the proposal made from {@link #traffic()} as its {@code isolation:} block. */
    private static String proposedModel(String model) {
        IsolationInputs seen = ProposalFixture.proposalInputs(ProposalFixture.model(model), traffic());
        return IsolationProposal.withBlock(model, IsolationProposal.propose(seen, 1));
    }

    /** Edge key → the proposed rule that allows it. */
    private static Map<String, String> rulesOfEdges(String model) {
        Map<String, String> out = new TreeMap<>();
        ProposalFixture.inputs(ProposalFixture.model(proposedModel(model)), traffic()).edges()
                .forEach(e -> out.put(e.key(), e.rule()));
        return out;
    }

    /** The model's text without the rule's line and the evidence comment before it. */
    private static String withoutRule(String model, String rule) {
        List<String> lines = new ArrayList<>(model.lines().toList());
        int at = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("    - { name: " + rule + ",")) {
                at = i;
            }
        }
        assertThat(at).as(rule).isPositive();
        assertThat(lines.get(at - 1)).startsWith("    # ");
        lines.remove(at);
        lines.remove(at - 1);
        return String.join("\n", lines) + "\n";
    }
}
