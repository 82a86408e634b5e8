package io.siteflow.rules.observer;

/**
 * What {@link ObserverRule} remembers between records: the observer chosen for each server and which agents have
 * announced themselves apart from their records (a heartbeat on {@code siteflow.agents}). The topology keeps it in
 * a changelogged store, the offline paths in memory ({@link ObserverMemory}). Implementations need not be
 * thread-safe; one rule applies per state.
 */
public interface ObserverState {
    /** The agent observing the server at {@code serverAddress}, or null before the first counted record. */
    String observer(String serverAddress);

    /** Makes {@code agent} the observer of the server at {@code serverAddress}. */
    void observe(String serverAddress, String agent);

    /** True when {@code agent} has sent a heartbeat (offline: never). */
    boolean heardFrom(String agent);
}
