package io.siteflow.model.wire;

/**
 * Every Kafka topic siteflow uses, by name (DESIGN.md, "Kafka topics"): the one place the agent, the broker
 * set-up, the Streams topology, the tests and the benchmarks take a topic name from. Partitions, replication and
 * per-topic configs are the broker's business ({@code io.siteflow.kafka.topics.SiteflowTopics}). Constants only.
 */
public final class Topics {
    /**
     * Flow records (schema 1, {@code FlowRecordJson}) from the agents, keyed by the local server (the end outside
     * the remote-site CIDRs, or the initiator without them); read by the stream processor.
     */
    public static final String FLOWS = "siteflow.flows";
    /** Agent heartbeats ({@link Heartbeat}), keyed by agent id; read by the processor's global agents store. */
    public static final String AGENTS = "siteflow.agents";
    /** The site model YAML under the one key {@link #SITES_KEY}, compacted: every instance classifies alike. */
    public static final String SITES = "siteflow.sites";
    /** Verdict JSON per closed window, keyed by server and remote site; written by the processor. */
    public static final String VERDICTS = "siteflow.verdicts";
    /** Alert JSON (FAIL verdicts, RTT above 10 ms, new cross-site peers, ISOLATION), keyed by server, site pair or isolation edge. */
    public static final String ALERTS = "siteflow.alerts";
    /**
     * The isolation stage's edges per window (JSON of the edge with {@code windowStart}, {@code windowEnd}), keyed by
     * {@code client|server|serverPort|proto|windowStart}; compacted (the newest value of each edge and window) and
     * retained by arrival.
     */
    public static final String ISOLATION = "siteflow.isolation";
    /** Records that could not be read, with the error, under their original key (the dead-letter topic). */
    public static final String DLQ = "siteflow.dlq";

    /** The one key of {@link #SITES}. */
    public static final String SITES_KEY = "sites";

    private Topics() {
    }
}
