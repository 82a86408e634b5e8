package io.siteflow.processor.topology.store;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.verdict.PairAggregate;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Pair aggregates of one task in two stores: the bounded part (categories, addresses, RTT histogram, top flows)
 * under the aggregate's key, and the DB connection lifetimes, which grow with every new connection, one
 * {@code [first, last]} value each under {@code <prefix>|<key>|<connection>} in the shared connection store.
 * So neither the per-record work nor a changelog record grows with the number of connections. Both are
 * {@link WriteBehind}: a record changes live objects, the stores get them when the task commits. Not
 * thread-safe (one per task); build a new one in {@code init} so that a re-initialised task starts from its
 * stores.
 */
public final class AggregateStore {
    private final String prefix;
    private final WriteBehind<PairAggregate> aggregates;
    private final WriteBehind<long[]> connections;
    /** Makes a new aggregate and notes that {@link #add} made one. */
    private final Supplier<PairAggregate> fresh = this::created;
    private boolean created;
    private final KeyTexts<ConnectionKey> connectionKeys = new KeyTexts<>(this::connectionKey);

    /** A connection of an aggregate, as the fields its key text is made of. */
    private record ConnectionKey(String aggregate, int proto, String src, int srcPort, String dst, int dstPort) {
    }

    public AggregateStore(String prefix, KeyValueStore<String, PairAggregate> store, WriteBehind<long[]> connections) {
        this.prefix = prefix;
        this.aggregates = new WriteBehind<>(store);
        this.connections = connections;
    }

    /**
     * Adds a record to the aggregate at {@code key}; true when that made a new aggregate.
     *
     * @param connection true for a DB record: its connection ({@link PairAggregate#connectionOf}) is kept under
     *                   {@code <prefix>|<key>|<connection>}
     */
    public boolean add(String key, FlowRecord r, Classification c, String remoteAddress, boolean connection) {
        created = false;
        aggregates.change(key, fresh).addExceptConnection(r, c, remoteAddress);
        if (connection) {
            String k = connectionKeys.of(new ConnectionKey(key, r.proto(), r.src(), r.srcPort(), r.dst(), r.dstPort()));
            long[] lifetime = connections.change(k, AggregateStore::noLifetime);
            lifetime[0] = Math.min(lifetime[0], r.start());
            lifetime[1] = Math.max(lifetime[1], r.end());
        }
        return created;
    }

    /**
     * Notes an exporter's record of the aggregate's pair that another observer counts
     * ({@link PairAggregate#compareExporter}).
     *
     * @return true when the aggregate did not exist before
     */
    public boolean compare(String key, FlowRecord r) {
        created = false;
        aggregates.change(key, fresh).compareExporter(r);
        return created;
    }

    private PairAggregate created() {
        created = true;
        return new PairAggregate();
    }

    /** A lifetime that any record's {@code [start, end]} replaces. */
    private static long[] noLifetime() {
        return new long[] {Long.MAX_VALUE, Long.MIN_VALUE};
    }

    /** Removes the aggregate at {@code key} with its connections; null when there is none. */
    public PairAggregate remove(String key) {
        PairAggregate a = aggregates.remove(key);
        if (a == null) {
            return null;
        }
        connections.flush();
        for (KeyValue<String, long[]> kv : connectionsOf(connections.store(), prefix, key)) {
            a.dbConnections().add(kv.key.substring(connectionPrefix(prefix, key).length()), kv.value[0], kv.value[1]);
            connections.remove(kv.key);
        }
        return a;
    }

    /** Writes the changed aggregates to the store (the task commits). */
    public void flush() {
        aggregates.flush();
    }

    /** Forgets the changes since the last flush. */
    public void discard() {
        aggregates.discard();
    }

    /** Every key of the bounded store, for rebuilding indexes at start. */
    public List<String> keys() {
        List<String> out = new ArrayList<>();
        try (KeyValueIterator<String, PairAggregate> it = aggregates.store().all()) {
            it.forEachRemaining(kv -> out.add(kv.key));
        }
        return out;
    }

    /** The connection entries of one aggregate. */
    public static List<KeyValue<String, long[]>> connectionsOf(
            org.apache.kafka.streams.state.ReadOnlyKeyValueStore<String, long[]> store, String prefix, String key) {
        List<KeyValue<String, long[]>> out = new ArrayList<>();
        try (KeyValueIterator<String, long[]> it = store.prefixScan(connectionPrefix(prefix, key),
                new StringSerializer())) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    public static String connectionPrefix(String prefix, String key) {
        return prefix + "|" + key + "|";
    }

    private String connectionKey(ConnectionKey k) {
        return connectionPrefix(prefix, k.aggregate())
                + PairAggregate.connectionOf(k.proto(), k.src(), k.srcPort(), k.dst(), k.dstPort());
    }
}
