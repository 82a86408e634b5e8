package io.siteflow.processor.query;

import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/**
 * Opens this instance's state stores by name (all local tasks together): over {@code KafkaStreams#store} in
 * production, over {@code TopologyTestDriver} in tests. Thread-safe.
 */
public interface StoreSource {

    /** @throws org.apache.kafka.streams.errors.InvalidStateStoreException while the store is not queryable */
    <V> ReadOnlyKeyValueStore<String, V> keyValue(String name);

    /**
     * The store of one task only: the task of {@code partition}, which must run on this instance (active, restored).
     *
     * @throws org.apache.kafka.streams.errors.InvalidStateStoreException (on use, at the latest) while that task
     *         is not running here: it is restoring, on another instance, or the instances are rebalancing
     */
    <V> ReadOnlyKeyValueStore<String, V> keyValue(String name, int partition);

    /** @throws org.apache.kafka.streams.errors.InvalidStateStoreException while the store is not queryable */
    <V> ReadOnlyWindowStore<String, V> window(String name);
}
