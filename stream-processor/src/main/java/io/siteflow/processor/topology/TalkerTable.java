package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.model.Category;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Folds counted records of audited servers into the talker store (one {@link TalkerStats} per
 * {@link TalkerKey}). Out is from the audited server to the remote end. Not thread-safe (one per task).
 */
final class TalkerTable {
    private final KeyValueStore<String, TalkerStats> store;

    TalkerTable(KeyValueStore<String, TalkerStats> store) {
        this.store = store;
    }

    /** Adds a record of {@code server}; {@code serverIsSource} says whether it initiated the flow. */
    void add(String server, boolean serverIsSource, String remote, Category category, FlowRecord r) {
        TalkerKey key = serverIsSource
                ? new TalkerKey(server, 0, remote, r.dstPort(), category)
                : new TalkerKey(server, r.dstPort(), remote, 0, category);
        TalkerStats s = store.get(key.text());
        s = s == null ? new TalkerStats() : s;
        long out = serverIsSource ? r.bytes() : r.rbytes();
        long in = serverIsSource ? r.rbytes() : r.bytes();
        s.add(r.start(), r.end(), out, in);
        store.put(key.text(), s);
    }
}
