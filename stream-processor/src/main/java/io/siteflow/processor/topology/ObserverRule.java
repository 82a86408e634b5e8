package io.siteflow.processor.topology;

import io.siteflow.processor.topology.store.WriteBehind;
import io.siteflow.rules.model.Host;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * One observer per audited server (DESIGN.md, "Verdict"): a record counts for server S only when its agent is
 * S's observer. S's host agent is the agent whose id equals S's host name in the site model; once it has been
 * seen (a record of it about S, or any heartbeat of it on {@code siteflow.agents}) it is S's observer for good.
 * Until then the first other agent whose record about S arrives (the site's edge agent) is the observer; the host
 * agent of another listed host (which sees only its own host's flows) is never an edge agent.
 * Records of other agents are not added (they stay on the topic for cross-checks).
 *
 * <p>Start-up race: records the edge agent sent before the host agent's first record or heartbeat reached this
 * task count; afterwards only the host agent's do, so a flow in progress at the switch may be counted partly by
 * each. Backed by the {@link TopologySpec#OBSERVER_STORE} store (changelogged) and the global agents store.
 */
final class ObserverRule {
    private final WriteBehind<String> observers;
    private final KnownAgents.View agents;

    ObserverRule(KeyValueStore<String, String> observers, KnownAgents.View agents) {
        this.observers = new WriteBehind<>(observers);
        this.agents = agents;
    }

    /**
     * True when {@code agent}'s record counts for {@code server}; updates the observer of the server.
     *
     * @param otherHostAgent true when the agent is the host agent of another listed host (never an edge agent)
     */
    boolean counts(Host server, String agent, boolean otherHostAgent) {
        String hostAgent = server.name();
        String current = observers.get(server.address());
        if (agent.equals(hostAgent) || hostAgent.equals(current)
                || agents.known(hostAgent)) {
            if (!hostAgent.equals(current)) {
                observers.put(server.address(), hostAgent);
            }
            return agent.equals(hostAgent);
        }
        if (otherHostAgent) {
            return false;
        }
        if (current == null) {
            observers.put(server.address(), agent);
            return true;
        }
        return current.equals(agent);
    }

    /** True when the server's observer last reported more than 0.1% of packets dropped (kernel + interface). */
    boolean dropsAboveLimit(String serverAddress) {
        return ObserverDrops.aboveLimit(observers.get(serverAddress), agents::heartbeat);
    }

    /** Writes observer changes to their store (the task commits). */
    void flush() {
        observers.flush();
    }

    /** Forgets the changes since the last flush. */
    void discard() {
        observers.discard();
    }
}
