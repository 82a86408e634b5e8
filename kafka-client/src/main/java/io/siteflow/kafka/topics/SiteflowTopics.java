package io.siteflow.kafka.topics;

import static io.siteflow.model.wire.Topics.AGENTS;
import static io.siteflow.model.wire.Topics.ALERTS;
import static io.siteflow.model.wire.Topics.DLQ;
import static io.siteflow.model.wire.Topics.FLOWS;
import static io.siteflow.model.wire.Topics.ISOLATION;
import static io.siteflow.model.wire.Topics.SITES;
import static io.siteflow.model.wire.Topics.VERDICTS;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The broker side of the topics siteflow uses (DESIGN.md, "Kafka topics"): partitions, replication and per-topic
 * configs of each topic named in {@link io.siteflow.model.wire.Topics}, for creating them. Immutable.
 *
 * @param partitions        partitions of every topic except {@code siteflow.sites}, which has one
 * @param replicationFactor replication factor of every topic (1 on a single-node broker, 3 on a cluster of three or
 *                          more); from 3 up each topic also gets {@code min.insync.replicas=2}, so an acknowledged
 *                          record survives the loss of any one broker while one broker may be down
 */
public record SiteflowTopics(int partitions, short replicationFactor) {
    /** Three partitions, replication 1: the single-node default. */
    public static final SiteflowTopics SINGLE_NODE = new SiteflowTopics(3, (short) 1);

    /** The replication a cluster of {@code brokers} nodes gets by default: {@code min(3, brokers)}. */
    public static SiteflowTopics forBrokers(int partitions, int brokers) {
        if (brokers < 1) {
            throw new IllegalArgumentException("a cluster has at least 1 broker, got " + brokers);
        }
        return new SiteflowTopics(partitions, (short) Math.min(3, brokers));
    }

    public SiteflowTopics {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be at least 1, got " + partitions);
        }
        if (replicationFactor < 1) {
            throw new IllegalArgumentException("replication factor must be at least 1, got " + replicationFactor);
        }
    }

    /** One topic: name, partitions, replication and configs (never null, possibly empty). */
    public record Topic(String name, int partitions, short replicationFactor, Map<String, String> configs) {
        public Topic {
            Objects.requireNonNull(name, "name");
            configs = Map.copyOf(configs);
        }
    }

    /**
     * How long {@code siteflow.isolation} keeps an edge's window (by arrival): 30 days, the processor's default
     * history retention, so the topic holds the period a report is asked for.
     */
    public static final long ISOLATION_RETENTION_MS = 30L * 24 * 3600 * 1000;

    /** All seven topics, in the order of DESIGN.md. */
    public List<Topic> topics() {
        return List.of(
                // LogAppendTime: a replayed old capture carries old event times; retention must go by
                // arrival, the event time stays inside the record
                topic(FLOWS, partitions, Map.of("message.timestamp.type", "LogAppendTime")),
                topic(AGENTS, partitions, Map.of()),
                // the site model under key "sites": only the latest value matters
                topic(SITES, 1, Map.of("cleanup.policy", "compact")),
                topic(VERDICTS, partitions, Map.of()),
                topic(ALERTS, partitions, Map.of()),
                // one value per edge and window (key edge|windowStart), the newest kept by compaction; deleted by
                // arrival time after the retention, so a replayed old capture's windows are not deleted at once
                topic(ISOLATION, partitions, Map.of("cleanup.policy", "compact,delete",
                        "message.timestamp.type", "LogAppendTime", "retention.ms", Long.toString(ISOLATION_RETENTION_MS))),
                topic(DLQ, partitions, Map.of()));
    }

    /**
     * The {@code min.insync.replicas} of every topic: 2 from replication factor 3 up (one broker may be down and a
     * write still needs two copies), else 1.
     */
    public int minInsyncReplicas() {
        return replicationFactor >= 3 ? 2 : 1;
    }

    /** The topic names, in the order of {@link #topics()}. */
    public List<String> names() {
        return topics().stream().map(Topic::name).toList();
    }

    private Topic topic(String name, int parts, Map<String, String> configs) {
        if (replicationFactor < 3) {
            return new Topic(name, parts, replicationFactor, configs);
        }
        Map<String, String> withIsr = new java.util.TreeMap<>(configs);
        withIsr.put("min.insync.replicas", Integer.toString(minInsyncReplicas()));
        return new Topic(name, parts, replicationFactor, withIsr);
    }
}
