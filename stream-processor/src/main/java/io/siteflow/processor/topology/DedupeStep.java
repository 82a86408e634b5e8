package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;
import java.time.Duration;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * Drops a record whose {@code id} was seen within the dedupe retention (event time) before or after it, so a
 * record re-sent after an agent outage, a spool replay or a restart counts once. The ids live in a window
 * store whose segments expire after the retention. All records of one agent and server share a key and so a
 * partition: a re-sent record meets its first copy in the same task.
 */
final class DedupeStep implements FixedKeyProcessor<byte[], FlowRecord, FlowRecord> {
    private final long retentionMs;
    private final PipelineMetrics metrics;
    private FixedKeyProcessorContext<byte[], FlowRecord> context;
    private WindowStore<String, Long> seen;

    DedupeStep(Duration retention, PipelineMetrics metrics) {
        this.retentionMs = retention.toMillis();
        this.metrics = metrics;
    }

    @Override
    public void init(FixedKeyProcessorContext<byte[], FlowRecord> context) {
        this.context = context;
        this.seen = context.getStateStore(TopologySpec.DEDUPE_STORE);
    }

    @Override
    public void process(FixedKeyRecord<byte[], FlowRecord> rec) {
        String id = rec.value().id();
        long t = rec.timestamp();
        if (seen.fetch(id, t) != null) {
            metrics.duplicates.increment();
            return;
        }
        seen.put(id, t, t);
        context.forward(rec);
    }
}
