package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordFormatException;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.model.wire.Topics;
import io.siteflow.processor.topology.store.AggregateStore;
import io.siteflow.processor.topology.store.SeenRuns;
import io.siteflow.rules.verdict.PairAggregate;
import io.siteflow.rules.verdict.PairAggregateJson;
import io.siteflow.rules.verdict.VerdictFormatException;
import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Every name and serde of the topology in one place: the topics (from {@link Topics}), the state
 * stores and the serdes of what flows between them. Constants only; all serdes are stateless and thread-safe.
 */
public final class TopologySpec {
    public static final String FLOWS = Topics.FLOWS;
    public static final String AGENTS = Topics.AGENTS;
    public static final String SITES = Topics.SITES;
    public static final String VERDICTS = Topics.VERDICTS;
    public static final String ALERTS = Topics.ALERTS;
    public static final String DLQ = Topics.DLQ;
    /** The one key of {@code siteflow.sites}. */
    public static final String SITES_KEY = Topics.SITES_KEY;
    /** Name of the internal topic that carries records keyed by audited server address. */
    public static final String BY_SERVER = "by-server";

    /** The name Kafka Streams gives the {@link #BY_SERVER} topic of application {@code applicationId}. */
    public static String byServerTopic(String applicationId) {
        return applicationId + "-" + BY_SERVER + "-repartition";
    }

    /** Global: the site model YAML, key {@code sites}. */
    public static final String SITES_STORE = "site-model";
    /** Global: each agent's last heartbeat JSON, by agent id. */
    public static final String AGENTS_STORE = "agents";
    /** Window store: record ids seen, for dedupe. */
    public static final String DEDUPE_STORE = "seen-ids";
    /** Server address to the agent whose records count for it (observer rule). */
    public static final String OBSERVER_STORE = "observers";
    /** Open windows: {@code server|remoteSite|windowStart} to the aggregate so far, without its DB connections. */
    public static final String OPEN_WINDOW_STORE = "open-windows";
    /** Cumulative aggregate per pair {@code server|remoteSite}, without its DB connections (see CONNECTION_STORE). */
    public static final String CUMULATIVE_STORE = "cumulative";
    /**
     * Lifetime {@code [first, last]} of each DB connection of an aggregate: {@code C|server|remoteSite|connection}
     * for cumulative ones, {@code W|server|remoteSite|windowStart|connection} for open windows.
     */
    public static final String CONNECTION_STORE = "db-connections";
    /** Window store: closed-window verdict JSON per pair, at the window start. */
    public static final String HISTORY_STORE = "verdict-history";
    /** The last closed-window verdict JSON per pair. */
    public static final String LATEST_STORE = "latest-window";
    /** Window store: alert JSON by alert key, at the alert time. */
    public static final String ALERT_STORE = "alerts";
    /** Cross-site (server, category, peer, port) seen, and the baseline start per task. */
    public static final String PEER_STORE = "peers";
    /** Per task: the audit step's stream time and the start of the new-peer baseline, epoch ms. */
    public static final String META_STORE = "audit-meta";
    /** The key in {@link #META_STORE} of the start of the task's {@code NEW_PEER} baseline (epoch ms). */
    public static final String BASELINE_START_KEY = "baseline-start";
    /** Talker statistics per host pair, category and service port. */
    public static final String TALKER_STORE = "talkers";
    /** The dedupe step's newest event time put (so a restarted task knows what its filter covers). */
    public static final String DEDUPE_META_STORE = "seen-ids-meta";
    /** The dedupe step's ids of the agent's form {@code <run>-<counter>}: {@code run|n} -> bits ({@link SeenRuns}). */
    public static final String DEDUPE_RUNS_STORE = "seen-runs";
    /** Not a store of data: tells the dedupe step when its task commits ({@link io.siteflow.processor.topology.store.CommitHook}). */
    public static final String DEDUPE_COMMIT_HOOK = "dedupe-commit-hook";
    /** Not a store of data: tells the audit step when its task commits ({@link io.siteflow.processor.topology.store.CommitHook}). */
    public static final String AUDIT_COMMIT_HOOK = "audit-commit-hook";

    public static final Serde<String> STRING = Serdes.String();
    public static final Serde<byte[]> BYTES = Serdes.ByteArray();
    /** Flow records between the topology's own steps: {@link FlowRecordBinary} (JSON is still read). */
    public static final Serde<FlowRecord> FLOW_RECORD = Serdes.serdeFrom(
            (topic, r) -> r == null ? null : FlowRecordBinary.write(r), TopologySpec::flowRecord);
    public static final Serde<PairAggregate> PAIR_AGGREGATE = Serdes.serdeFrom(
            (topic, a) -> a == null ? null : PairAggregateJson.toBytes(a), TopologySpec::aggregate);
    /** A DB connection lifetime {@code [first, last]} in epoch ms, 16 bytes. */
    public static final Serde<long[]> LIFETIME = Serdes.serdeFrom(
            (topic, l) -> l == null ? null : ByteBuffer.allocate(16).putLong(l[0]).putLong(l[1]).array(),
            (topic, b) -> b == null ? null : new long[] {ByteBuffer.wrap(b).getLong(0), ByteBuffer.wrap(b).getLong(8)});
    static final Serde<SeenRuns.Chunk> SEEN_CHUNK = Serdes.serdeFrom(
            (topic, c) -> c == null ? null : c.toBytes(), (topic, b) -> b == null ? null : SeenRuns.Chunk.fromBytes(topic, b));
    public static final Serde<TalkerStats> TALKER_STATS = Serdes.serdeFrom(
            (topic, t) -> t == null ? null : t.toBytes(), (topic, b) -> b == null ? null : TalkerStats.fromBytes(b));

    private TopologySpec() {
    }

    /** The connection-store key prefix of a pair's cumulative DB connections. */
    public static String cumulativeConnections(String pairKey) {
        return AggregateStore.connectionPrefix(PairWindows.CUMULATIVE, pairKey);
    }

    /**
     * The cumulative-store key of one app server's DB records with one database, the site comparison's
     * ({@link io.siteflow.rules.verdict.DbSites}): {@code db|database|server}. It is kept in the task of the
     * database's address on the {@code by-server} topic, so {@code db} never starts a pair key (server addresses
     * hold no {@code |}).
     */
    public static String dbSiteKey(String database, String server) {
        return "db|" + database + "|" + server;
    }

    private static FlowRecord flowRecord(String topic, byte[] b) {
        if (b == null) {
            return null;
        }
        try {
            return b.length > 0 && b[0] == '{' ? FlowRecordJson.parse(b) : FlowRecordBinary.read(b);
        } catch (FlowRecordFormatException | IllegalArgumentException e) {
            throw new SerializationException(topic + ": " + e.getMessage(), e);
        }
    }

    private static PairAggregate aggregate(String topic, byte[] b) {
        if (b == null) {
            return null;
        }
        try {
            return PairAggregateJson.parse(b);
        } catch (VerdictFormatException e) {
            throw new SerializationException(topic + ": " + e.getMessage(), e);
        }
    }
}
