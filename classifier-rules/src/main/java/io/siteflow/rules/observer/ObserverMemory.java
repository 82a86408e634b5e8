package io.siteflow.rules.observer;

import java.util.HashMap;
import java.util.Map;

/**
 * {@link ObserverState} in memory, for the offline audit and the what-if: no heartbeats, so a host agent becomes
 * its server's observer with its first record. Not thread-safe.
 */
public final class ObserverMemory implements ObserverState {
    private final Map<String, String> observers = new HashMap<>();

    @Override
    public String observer(String serverAddress) {
        return observers.get(serverAddress);
    }

    @Override
    public void observe(String serverAddress, String agent) {
        observers.put(serverAddress, agent);
    }

    @Override
    public boolean heardFrom(String agent) {
        return false;
    }
}
