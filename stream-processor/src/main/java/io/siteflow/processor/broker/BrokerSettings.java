package io.siteflow.processor.broker;

import java.nio.file.Path;
import java.util.Properties;

/**
 * The Kafka server properties of a KRaft node that is both broker and controller: a single-node broker, or one
 * node of a cluster whose voters are all such nodes. Pure function of its inputs; see
 * {@code stream-processor/README.md} for why each value is set.
 */
final class BrokerSettings {
    static final String CONTROLLER_LISTENER = "CONTROLLER";
    /** The log cleaner's dedupe buffer: Kafka's 128 MB default is most of an idle broker's heap. */
    static final long DEDUPE_BUFFER_BYTES = 4L * 1024 * 1024;

    private BrokerSettings() {
    }

    /**
     * Server properties for a node of {@code quorum} whose client listener binds {@code listen} and is advertised
     * as {@code advertised}, with {@code overrides} applied last. Kafka's internal topics get the replication of
     * {@link SiteflowTopics#forBrokers(int, int)}: 3 and {@code min.insync.replicas=2} on three or more nodes,
     * the node count (and 1) below.
     */
    static Properties of(KraftQuorum quorum, KraftQuorum.HostPort listen, KraftQuorum.HostPort advertised,
            Path dataDir, Properties overrides) {
        KraftQuorum.Voter self = quorum.self();
        SiteflowTopics replication = SiteflowTopics.forBrokers(1, quorum.size());
        String rf = Short.toString(replication.replicationFactor());
        String minIsr = Integer.toString(replication.minInsyncReplicas());
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", Integer.toString(quorum.nodeId()));
        p.put("controller.quorum.voters", quorum.spelled());
        p.put("listeners", "PLAINTEXT://" + listen + "," + CONTROLLER_LISTENER + "://"
                + new KraftQuorum.HostPort(self.host(), self.port()));
        p.put("advertised.listeners", "PLAINTEXT://" + advertised);
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        p.put("controller.listener.names", CONTROLLER_LISTENER);
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", dataDir.toAbsolutePath().toString());
        p.put("num.partitions", "1");
        p.put("default.replication.factor", rf);
        p.put("offsets.topic.replication.factor", rf);
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", rf);
        p.put("transaction.state.log.min.isr", minIsr);
        p.put("transaction.state.log.num.partitions", "1");
        p.put("share.coordinator.state.topic.replication.factor", rf);
        p.put("share.coordinator.state.topic.min.isr", minIsr);
        p.put("share.coordinator.state.topic.num.partitions", "1");
        p.put("min.insync.replicas", minIsr);
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("log.cleaner.dedupe.buffer.size", Long.toString(DEDUPE_BUFFER_BYTES));
        p.put("auto.create.topics.enable", "false");
        p.putAll(overrides);
        return p;
    }
}
