package io.siteflow.rules.observer;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.SiteModel;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One observer per server (DESIGN.md, "Verdict"): a record of a server S's flows counts for S only when its agent
 * is S's observer; other observers' records of the same flows are kept for cross-checks, never added. The one
 * implementation of the rule, applied by the offline audit, the what-if and the stream processor alike.
 *
 * <p>An agent is identified by its id: S's host agent is the agent whose id equals S's host name in the site
 * model. Once it has been seen (a record of it about S, or a heartbeat, {@link ObserverState#heardFrom}) it is S's
 * observer for good. Until then the first other agent whose record about S arrives (the site's edge agent) is the
 * observer; the host agent of another listed host (which sees only its own host's flows) never is.
 *
 * <p>A flow exporter (a router, firewall or probe whose records {@code siteflow collect} makes; the record's
 * {@code exporter}) is an observer of its own, {@link #observerOf}: {@code AGENT@EXPORTER}, the collector's agent id
 * and the exporter's address. It is never a host agent, so it is an edge observer of the servers behind it: it counts
 * for a server until the server's host agent is seen, and from then on its records are compared with the host
 * agent's, not added ({@code PairAggregate.compareExporter}). Two exporters that see the same traffic are two edge
 * observers: the first one counts, the other's records are compared with its.
 *
 * <p>Order matters only before the host agent is seen: records an edge agent sent before the host agent's first
 * record or heartbeat count, later ones do not. Immutable and thread-safe; the state is the caller's.
 */
public final class ObserverRule {
    private final Set<String> hostAgents;

    /** The rule for the hosts of {@code model}. */
    public ObserverRule(SiteModel model) {
        this.hostAgents = model.hosts().stream().map(Host::name).collect(Collectors.toUnmodifiableSet());
    }

    /**
     * The observer that recorded {@code r}, as this rule knows it: the agent id, or {@code AGENT@EXPORTER} for a record
     * a flow collector made from an exporter's flows.
     */
    public static String observerOf(FlowRecord r) {
        return r.exporter() == null ? r.agent() : r.agent() + "@" + r.exporter();
    }

    /** The agent (its heartbeats' id) of an observer {@link #observerOf} named: the part before the last {@code @}. */
    public static String agentOf(String observer) {
        int at = observer.lastIndexOf('@');
        return at < 0 ? observer : observer.substring(0, at);
    }

    /** True when {@code agent} is the host agent of a listed host (its id equals the host's name). */
    public boolean isHostAgent(String agent) {
        return hostAgents.contains(agent);
    }

    /**
     * True when {@code agent} can ever be {@code server}'s observer: its host agent, or an agent that is no other
     * listed host's. A record that fails this never counts for the server, whatever the state.
     */
    public boolean mayObserve(Host server, String agent) {
        return agent.equals(server.name()) || !isHostAgent(agent);
    }

    /**
     * True when {@code agent}'s record counts for {@code server}; updates the server's observer in {@code state}.
     */
    public boolean counts(Host server, String agent, ObserverState state) {
        return mayObserve(server, agent) && countsObservable(server.name(), server.address(), agent, state);
    }

    /**
     * {@link #counts} of an agent already known to {@link #mayObserve may observe} the server (checked where the
     * model is at hand: the stream processor's what-if stage checks it before it re-keys the record by server, and
     * applies the rest here in the server's task): the part of the rule that reads and updates the state.
     *
     * @param serverName    the server's host name (its host agent's id)
     * @param serverAddress its address (the state's key)
     */
    public static boolean countsObservable(String serverName, String serverAddress, String agent,
                                           ObserverState state) {
        String current = state.observer(serverAddress);
        if (agent.equals(serverName) || serverName.equals(current) || state.heardFrom(serverName)) {
            if (!serverName.equals(current)) {
                state.observe(serverAddress, serverName);
            }
            return agent.equals(serverName);
        }
        if (current == null) {
            state.observe(serverAddress, agent);
            return true;
        }
        return current.equals(agent);
    }
}
