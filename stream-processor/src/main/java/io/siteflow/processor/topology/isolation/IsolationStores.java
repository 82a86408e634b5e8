package io.siteflow.processor.topology.isolation;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The names and serdes of the isolation stage (stream-processor/docs/topology.md, "Isolation stage"): its
 * repartition topic, its stores (names start with {@code isolation}) and what flows between its steps. Persistent
 * and changelogged like the audit step's: the key-value stores are written when the task commits (write-behind),
 * the window stores keep their changelog's retention by arrival. Constants and builders only; thread-safe.
 */
public final class IsolationStores {
    /** The stage's name: the prefix of its nodes and stores. */
    public static final String NAME = "isolation";
    /** The internal topic that carries each record's {@link EdgeUpdate} keyed by edge. */
    public static final String BY_EDGE = "isolation-by-edge";
    /** Window store: edge key at the window start to the edge of that window (binary, {@link EdgeCodec}). */
    public static final String EDGES = "isolation-edges";
    /** Edge key to its observer: the agent whose record of the edge came first. */
    public static final String OBSERVERS = "isolation-observers";
    /** {@code address|peerSite} to {@code [samples, min µs]}: the handshake RTTs of the edges' task. */
    public static final String RTTS = "isolation-rtts";
    /** {@code stream-time} to {@code [t]}; {@code alert|edge} to {@code [last alert, end of last violating window]}. */
    public static final String META = "isolation-meta";
    /** Window store: the ISOLATION and CLEARED alert JSON by edge key, at the alert time (for queries). */
    public static final String ALERTS = "isolation-alerts";
    /** Not a store of data: tells the isolation step when its task commits. */
    public static final String COMMIT_HOOK = "isolation-commit-hook";
    /** The key in {@link #META} of the stage's stream time. */
    public static final String STREAM_TIME = "stream-time";
    /** The prefix of the keys in {@link #META} of the edges in an alert state. */
    public static final String ALERT_PREFIX = "alert|";

    public static final Serde<String> STRING = Serdes.String();
    public static final Serde<byte[]> BYTES = Serdes.ByteArray();
    /** Longs, 8 bytes each. */
    public static final Serde<long[]> LONGS = Serdes.serdeFrom(IsolationStores::longs, IsolationStores::longs);
    public static final Serde<EdgeUpdate> UPDATE = Serdes.serdeFrom(
            (topic, u) -> u == null ? null : u.toBytes(), IsolationStores::update);

    private IsolationStores() {
    }

    /** A key-value store the step writes on commit: no cache of its own. */
    public static StoreBuilder<KeyValueStore<String, long[]>> longs(String name) {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), STRING, LONGS).withCachingDisabled();
    }

    /** {@link #OBSERVERS}, written on commit. */
    public static StoreBuilder<KeyValueStore<String, String>> observers() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(OBSERVERS), STRING, STRING)
                .withCachingDisabled();
    }

    /**
     * A window store of {@code windowMs} windows kept {@code retention} (by event time; its changelog by arrival,
     * so the windows of a replayed old capture survive the next restore), written by the step on commit.
     */
    public static StoreBuilder<WindowStore<String, byte[]>> window(String name, Duration retention, long windowMs,
                                                                  boolean duplicates) {
        return Stores.windowStoreBuilder(Stores.persistentWindowStore(name, retention, Duration.ofMillis(windowMs),
                duplicates), STRING, BYTES).withCachingDisabled()
                .withLoggingEnabled(Map.of("message.timestamp.type", "LogAppendTime"));
    }

    /** The {@link #META} key of an edge's alert state. */
    public static String alertKey(String edgeKey) {
        return ALERT_PREFIX + edgeKey;
    }

    private static byte[] longs(String topic, long[] values) {
        if (values == null) {
            return null;
        }
        ByteBuffer b = ByteBuffer.allocate(8 * values.length);
        for (long v : values) {
            b.putLong(v);
        }
        return b.array();
    }

    private static long[] longs(String topic, byte[] b) {
        if (b == null) {
            return null;
        }
        if (b.length % 8 != 0) {
            throw new SerializationException(topic + ": " + b.length + " bytes are not longs");
        }
        long[] out = new long[b.length / 8];
        ByteBuffer.wrap(b).asLongBuffer().get(out);
        return out;
    }

    private static EdgeUpdate update(String topic, byte[] b) {
        if (b == null) {
            return null;
        }
        try {
            return EdgeUpdate.fromBytes(b);
        } catch (IllegalArgumentException e) {
            throw new SerializationException(topic + ": " + e.getMessage(), e);
        }
    }
}
