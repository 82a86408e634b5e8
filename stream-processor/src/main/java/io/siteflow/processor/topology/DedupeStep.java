package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Drops a record whose {@code id} was seen before, so a record re-sent after an agent outage, a spool replay or a
 * restart counts once. A re-sent record is the same record: same id, same event time ({@code start}), so one
 * point lookup (id, time) in a window store finds its first copy; the store's segments expire after the dedupe
 * retention. All records of one agent and server share a key and so a partition: a re-sent record meets its
 * first copy in the same task. {@link SeenIds} spares the store read for ids that are certainly new; the newest
 * event time put is kept in the meta store (written on commit) so that a restarted task knows which times its
 * filter covers.
 */
final class DedupeStep implements FixedKeyProcessor<byte[], FlowRecord, FlowRecord> {
    static final String NEWEST = "newest-id-time";
    private final PipelineMetrics metrics;
    private FixedKeyProcessorContext<byte[], FlowRecord> context;
    private WindowStore<String, Long> seen;
    private WriteBehind<Long> meta;
    private SeenIds filter;

    DedupeStep(PipelineMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void init(FixedKeyProcessorContext<byte[], FlowRecord> context) {
        this.context = context;
        this.seen = context.getStateStore(TopologySpec.DEDUPE_STORE);
        KeyValueStore<String, Long> metaStore = context.getStateStore(TopologySpec.DEDUPE_META_STORE);
        this.meta = new WriteBehind<>(metaStore);
        Long newest = meta.get(NEWEST);
        this.filter = new SeenIds(newest == null ? Long.MIN_VALUE : newest);
        CommitHook hook = context.getStateStore(TopologySpec.DEDUPE_COMMIT_HOOK);
        hook.onCommit(this::flush, meta::discard);
    }

    @Override
    public void process(FixedKeyRecord<byte[], FlowRecord> rec) {
        String id = rec.value().id();
        long t = rec.timestamp();
        if (!filter.certainlyNew(id, t) && seen.fetch(id, t) != null) {
            metrics.duplicates.increment();
            return;
        }
        seen.put(id, t, t);
        filter.add(id, t);
        context.forward(rec);
    }

    private void flush() {
        Long stored = meta.get(NEWEST);
        if (stored == null || stored < filter.newest()) {
            meta.put(NEWEST, filter.newest());
        }
        meta.flush();
    }
}
