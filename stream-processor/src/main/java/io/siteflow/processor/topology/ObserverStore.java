package io.siteflow.processor.topology;

import io.siteflow.processor.topology.store.WriteBehind;
import io.siteflow.rules.observer.ObserverRule;
import io.siteflow.rules.observer.ObserverState;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The state of the observer rule ({@link ObserverRule}) in a task: each server's observer in the
 * {@link TopologySpec#OBSERVER_STORE} store (changelogged; written on commit), and the agents that sent a
 * heartbeat from the global agents store. Not thread-safe (one per task).
 */
final class ObserverStore implements ObserverState {
    private final WriteBehind<String> observers;
    private final KnownAgents.View agents;
    /** Put before each server address: "" for the audit's observers, {@link #DB_SITE} for the site comparison's. */
    private final String prefix;
    /** The key prefix of the site comparison's observers ({@link #forDbSites}). */
    private static final String DB_SITE = "db-site|";

    ObserverStore(KeyValueStore<String, String> observers, KnownAgents.View agents) {
        this(new WriteBehind<>(observers), agents, "");
    }

    private ObserverStore(WriteBehind<String> observers, KnownAgents.View agents, String prefix) {
        this.observers = observers;
        this.agents = agents;
        this.prefix = prefix;
    }

    @Override
    public String observer(String serverAddress) {
        return observers.get(prefix + serverAddress);
    }

    @Override
    public void observe(String serverAddress, String agent) {
        observers.put(prefix + serverAddress, agent);
    }

    @Override
    public boolean heardFrom(String agent) {
        return agents.known(agent);
    }

    /**
     * The site comparison's own observer state, in the same store (and the same write-behind, flushed by this one)
     * under keys {@code db-site|ADDRESS}: the observer of an app server for its DB records in a database's task is
     * chosen by those records alone, as {@code siteflow audit} chooses it, whether or not the app server's own audit
     * runs in the same task (it does when both addresses fall in one partition).
     */
    ObserverState forDbSites() {
        return new ObserverStore(observers, agents, DB_SITE);
    }

    /** True when the server's observer last reported more than 0.1% of packets dropped (kernel + interface). */
    boolean dropsAboveLimit(String serverAddress) {
        return ObserverDrops.aboveLimit(observer(serverAddress), agents::heartbeat);
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
