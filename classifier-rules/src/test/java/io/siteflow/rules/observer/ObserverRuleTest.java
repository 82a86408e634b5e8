package io.siteflow.rules.observer;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.SiteModel;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The observer rule over an in-memory state: which agent's records count for wls3. */
class ObserverRuleTest {
    private static final String YAML = """
            sites:
              region1: { cidrs: [10.1.0.0/16] }
              region2: { cidrs: [10.2.0.0/16] }
            hosts:
              - { address: 10.1.0.10, name: db1, role: db }
              - { address: 10.2.0.20, name: wls3, role: app-server }
              - { address: 10.2.0.21, name: wls4, role: app-server }
            """;

    private final SiteModel model = load();
    private final ObserverRule rule = new ObserverRule(model);
    private final Host wls3 = model.hosts().get(1);

    private static SiteModel load() {
        try {
            return SiteModelLoader.parse("sites.yaml", YAML).orThrow();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private List<Boolean> counts(ObserverState state, String... agents) {
        return java.util.Arrays.stream(agents).map(a -> rule.counts(wls3, a, state)).toList();
    }

    @Test
    void theFirstEdgeAgentObservesTheServerWhileItsHostAgentIsUnseen() {
        assertThat(counts(new ObserverMemory(), "edge-b", "edge-a", "edge-b")).containsExactly(true, false, true);
    }

    @Test
    void theHostAgentObservesForGoodFromItsFirstRecord() {
        ObserverMemory state = new ObserverMemory();

        assertThat(counts(state, "edge-b", "wls3", "edge-b", "wls3")).containsExactly(true, true, false, true);
        assertThat(state.observer("10.2.0.20")).isEqualTo("wls3");
    }

    @Test
    void aHeartbeatOfTheHostAgentMakesItTheObserverBeforeItsFirstRecord() {
        ObserverState state = new Heard(Set.of("wls3"));

        assertThat(counts(state, "edge-b", "wls3")).containsExactly(false, true);
    }

    @Test
    void anotherListedHostsAgentNeverObservesTheServerNorBecomesItsObserver() {
        ObserverMemory state = new ObserverMemory();

        assertThat(rule.mayObserve(wls3, "wls4")).isFalse();
        assertThat(rule.mayObserve(wls3, "wls3")).isTrue();
        assertThat(rule.mayObserve(wls3, "edge-b")).isTrue();
        assertThat(counts(state, "wls4", "edge-b")).containsExactly(false, true);
        assertThat(state.observer("10.2.0.20")).isEqualTo("edge-b");
    }

    @Test
    void hostAgentsAreTheListedHostsNames() {
        assertThat(List.of("db1", "wls3", "wls4", "edge-b", "10.2.0.20").stream().map(rule::isHostAgent))
                .containsExactly(true, true, true, false, false);
    }

    @Test
    void anExporterIsAnObserverOfItsOwnNamedByItsCollectorAndItsAddress() {
        io.siteflow.model.FlowRecord agent = io.siteflow.model.FlowRecord.builder().id("r-1").agent("edge-b")
                .iface("ens4").endpoints(6, "10.2.0.20", 40000, "10.1.0.10", 1521).build();
        io.siteflow.model.FlowRecord exported = agent.toBuilder().iface("0.0.0.0:2055").exporter("2001:db8::1", 0L)
                .build();

        assertThat(ObserverRule.observerOf(agent)).isEqualTo("edge-b");
        assertThat(ObserverRule.observerOf(exported)).isEqualTo("edge-b@2001:db8::1");
        assertThat(ObserverRule.agentOf("edge-b@2001:db8::1")).isEqualTo("edge-b");
        assertThat(ObserverRule.agentOf("user@host@192.0.2.1")).isEqualTo("user@host");
        assertThat(ObserverRule.agentOf("edge-b")).isEqualTo("edge-b");
    }

    @Test
    void twoExportersOfOneCollectorAreTwoEdgeObserversAndTheHostAgentTakesOverFromThem() {
        ObserverMemory state = new ObserverMemory();

        assertThat(counts(state, "edge-b@192.0.2.1", "edge-b@192.0.2.2", "edge-b@192.0.2.1", "wls3",
                "edge-b@192.0.2.1")).containsExactly(true, false, true, true, false);
        assertThat(rule.mayObserve(wls3, "edge-b@192.0.2.2")).isTrue();
    }

    /** A state whose heartbeats are given. */
    private static final class Heard implements ObserverState {
        private final ObserverMemory memory = new ObserverMemory();
        private final Set<String> heard;

        Heard(Set<String> heard) {
            this.heard = new HashSet<>(heard);
        }

        @Override
        public String observer(String serverAddress) {
            return memory.observer(serverAddress);
        }

        @Override
        public void observe(String serverAddress, String agent) {
            memory.observe(serverAddress, agent);
        }

        @Override
        public boolean heardFrom(String agent) {
            return heard.contains(agent);
        }
    }
}
