package io.siteflow.processor.topology;

import io.siteflow.processor.topology.store.CommitHook;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The topology's own state stores: persistent (RocksDB) and changelogged, so a restart or a moved task
 * restores them. The audit step's key-value stores are written when the task commits ({@link io.siteflow.processor.topology.store.WriteBehind},
 * {@link CommitHook}), the other stores are cached, so a value updated by many records within one commit interval
 * reaches RocksDB and its changelog once. Window stores drop whole segments once older than their retention.
 * Stateless.
 */
final class StateStores {
    /** The stores of the dedupe step. */
    static final String[] DEDUPE_STORES = {TopologySpec.DEDUPE_STORE, TopologySpec.DEDUPE_RUNS_STORE,
        TopologySpec.DEDUPE_META_STORE, TopologySpec.DEDUPE_COMMIT_HOOK};
    /** The stores of the audit step. */
    static final String[] AUDIT_STORES = {TopologySpec.OBSERVER_STORE, TopologySpec.OPEN_WINDOW_STORE,
        TopologySpec.CUMULATIVE_STORE, TopologySpec.CONNECTION_STORE, TopologySpec.HISTORY_STORE, TopologySpec.LATEST_STORE,
        TopologySpec.ALERT_STORE, TopologySpec.PEER_STORE, TopologySpec.TALKER_STORE, TopologySpec.META_STORE,
        TopologySpec.AUDIT_COMMIT_HOOK};

    private StateStores() {
    }

    static void addTo(StreamsBuilder builder, TopologyConfig config) {
        builder.addStateStore(window(TopologySpec.DEDUPE_STORE, config.dedupeRetention(), Serdes.Long(), false)
                .withCachingEnabled());
        builder.addStateStore(writtenOnCommit(TopologySpec.DEDUPE_RUNS_STORE, TopologySpec.SEEN_CHUNK));
        builder.addStateStore(writtenOnCommit(TopologySpec.DEDUPE_META_STORE, Serdes.Long()));
        builder.addStateStore(CommitHook.builder(TopologySpec.DEDUPE_COMMIT_HOOK));
        builder.addStateStore(writtenOnCommit(TopologySpec.OBSERVER_STORE, TopologySpec.STRING));
        builder.addStateStore(writtenOnCommit(TopologySpec.OPEN_WINDOW_STORE, TopologySpec.PAIR_AGGREGATE));
        builder.addStateStore(writtenOnCommit(TopologySpec.CUMULATIVE_STORE, TopologySpec.PAIR_AGGREGATE));
        builder.addStateStore(writtenOnCommit(TopologySpec.CONNECTION_STORE, TopologySpec.LIFETIME));
        builder.addStateStore(window(TopologySpec.HISTORY_STORE, config.historyRetention(), TopologySpec.STRING, false));
        builder.addStateStore(kv(TopologySpec.LATEST_STORE, TopologySpec.STRING));
        builder.addStateStore(window(TopologySpec.ALERT_STORE, config.historyRetention(), TopologySpec.STRING, true));
        builder.addStateStore(writtenOnCommit(TopologySpec.PEER_STORE, Serdes.Long()));
        builder.addStateStore(writtenOnCommit(TopologySpec.TALKER_STORE, TopologySpec.TALKER_STATS));
        builder.addStateStore(writtenOnCommit(TopologySpec.META_STORE, Serdes.Long()));
        builder.addStateStore(CommitHook.builder(TopologySpec.AUDIT_COMMIT_HOOK));
    }

    private static <V> StoreBuilder<KeyValueStore<String, V>> kv(String name, Serde<V> values) {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), TopologySpec.STRING, values)
                .withCachingEnabled();
    }

    /** A store a step writes through {@link io.siteflow.processor.topology.store.WriteBehind} when the task commits: no cache of its own. */
    private static <V> StoreBuilder<KeyValueStore<String, V>> writtenOnCommit(String name, Serde<V> values) {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), TopologySpec.STRING, values)
                .withCachingDisabled();
    }

    private static <V> StoreBuilder<WindowStore<String, V>> window(String name, Duration retention, Serde<V> values,
                                                                  boolean duplicates) {
        // changelog retention is by arrival (LogAppendTime): entries of a replayed old capture carry old event
        // times and would otherwise be deleted from the changelog at once, and lost at the next restore
        return Stores.windowStoreBuilder(Stores.persistentWindowStore(name, retention, Duration.ofMillis(1),
                duplicates), TopologySpec.STRING, values)
                .withLoggingEnabled(Map.of("message.timestamp.type", "LogAppendTime"));
    }
}
