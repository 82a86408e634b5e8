package io.siteflow.processor.app;

import io.siteflow.processor.query.Cluster;
import io.siteflow.processor.query.KafkaStreamsStores;
import io.siteflow.processor.query.StoreSource;
import java.util.List;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/**
 * The stores and the cluster metadata of whichever {@link KafkaStreams} instance runs now: the queries are built
 * once and outlive a restart of Kafka Streams ({@link ProcessorRuntime}). Thread-safe.
 */
final class KafkaStreamsSource {
    private final Supplier<KafkaStreams> now;

    KafkaStreamsSource(Supplier<KafkaStreams> now) {
        this.now = now;
    }

    /** The stores of the instance running when each is opened. */
    StoreSource stores() {
        return new StoreSource() {
            @Override
            public <V> ReadOnlyKeyValueStore<String, V> keyValue(String name) {
                return new KafkaStreamsStores(now.get()).keyValue(name);
            }

            @Override
            public <V> ReadOnlyKeyValueStore<String, V> keyValue(String name, int partition) {
                return new KafkaStreamsStores(now.get()).keyValue(name, partition);
            }

            @Override
            public <V> ReadOnlyWindowStore<String, V> window(String name) {
                return new KafkaStreamsStores(now.get()).window(name);
            }
        };
    }

    /** {@link Cluster#of} over the instance running when asked; {@code self} is this instance's address. */
    Cluster cluster(HostInfo self) {
        return new Cluster() {
            @Override
            public Owner owner(String server) {
                return Cluster.of(now.get(), self).owner(server);
            }

            @Override
            public List<HostInfo> others() {
                return Cluster.of(now.get(), self).others();
            }

            @Override
            public Owner owner(String store, String key) {
                return Cluster.of(now.get(), self).owner(store, key);
            }

            @Override
            public List<HostInfo> others(String store) {
                return Cluster.of(now.get(), self).others(store);
            }
        };
    }

    /** One instance, which holds everything. */
    Cluster single() {
        return Cluster.SINGLE;
    }
}
