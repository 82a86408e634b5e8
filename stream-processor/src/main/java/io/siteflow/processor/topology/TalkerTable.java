package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;
import io.siteflow.processor.topology.store.KeyTexts;
import io.siteflow.processor.topology.store.WriteBehind;
import io.siteflow.rules.model.Category;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Folds counted records of audited servers into the talker store (one {@link TalkerStats} per
 * {@link TalkerKey}), written back when the task commits ({@link WriteBehind}). Out is from the audited server to
 * the remote end. Not thread-safe (one per task).
 */
final class TalkerTable {
    private final WriteBehind<TalkerStats> stats;
    private final KeyTexts<TalkerKey> texts = new KeyTexts<>(TalkerKey::text);

    TalkerTable(KeyValueStore<String, TalkerStats> store) {
        this.stats = new WriteBehind<>(store);
    }

    /**
     * Adds a record of {@code server} received at {@code wallMs}; {@code serverIsSource} says whether it
     * initiated the flow.
     */
    void add(String server, boolean serverIsSource, String remote, Category category, FlowRecord r, long wallMs) {
        TalkerKey key = serverIsSource
                ? new TalkerKey(server, 0, remote, r.dstPort(), category)
                : new TalkerKey(server, r.dstPort(), remote, 0, category);
        long out = serverIsSource ? r.bytes() : r.rbytes();
        long in = serverIsSource ? r.rbytes() : r.bytes();
        stats.change(texts.of(key), TalkerStats::new).add(r.start(), r.end(), out, in, wallMs);
    }

    /** Writes the changed rows to the store (the task commits). */
    void flush() {
        stats.flush();
    }

    /** Forgets the changes since the last flush. */
    void discard() {
        stats.discard();
    }
}
