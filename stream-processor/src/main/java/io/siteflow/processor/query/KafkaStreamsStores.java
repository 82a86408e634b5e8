package io.siteflow.processor.query;

import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/** {@link StoreSource} over a running {@link KafkaStreams}. Thread-safe. */
public final class KafkaStreamsStores implements StoreSource {
    private final KafkaStreams streams;

    public KafkaStreamsStores(KafkaStreams streams) {
        this.streams = streams;
    }

    @Override
    public <V> ReadOnlyKeyValueStore<String, V> keyValue(String name) {
        return streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<String, V>keyValueStore()));
    }

    @Override
    public <V> ReadOnlyKeyValueStore<String, V> keyValue(String name, int partition) {
        return streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<String, V>keyValueStore())
                .withPartition(partition));
    }

    @Override
    public <V> ReadOnlyWindowStore<String, V> window(String name) {
        return streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<String, V>windowStore()));
    }
}
