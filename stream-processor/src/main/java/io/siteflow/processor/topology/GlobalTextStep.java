package io.siteflow.processor.topology;

import java.util.function.BiConsumer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.TimestampedKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/**
 * Keeps a global text store (the site model; the agents' store is {@link HeartbeatStep}'s) as its topic says, and hands each new value
 * to a listener that keeps it ready for the stream tasks, so they need not read the store for every record.
 * Runs on the global thread. A store restored at start-up does not pass through here: readers fall back to the
 * store until the first value arrives (see {@link ModelCache}, {@link KnownAgents}).
 */
final class GlobalTextStep implements Processor<String, String, Void, Void> {
    private final String storeName;
    private final BiConsumer<String, String> listener;
    private TimestampedKeyValueStore<String, String> store;

    GlobalTextStep(String storeName, BiConsumer<String, String> listener) {
        this.storeName = storeName;
        this.listener = listener;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<String, String> rec) {
        if (rec.key() == null) {
            return;
        }
        if (rec.value() == null) {
            store.delete(rec.key());
        } else {
            store.put(rec.key(), ValueAndTimestamp.make(rec.value(), rec.timestamp()));
        }
        listener.accept(rec.key(), rec.value());
    }
}
