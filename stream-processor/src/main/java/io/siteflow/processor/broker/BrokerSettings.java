package io.siteflow.processor.broker;

import java.nio.file.Path;
import java.util.Properties;

/**
 * The Kafka server properties of a single-node KRaft broker that is its own controller. Pure
 * function of its inputs; see {@code stream-processor/README.md} for why each value is set.
 */
final class BrokerSettings {
    static final int NODE_ID = 1;
    static final String CONTROLLER_LISTENER = "CONTROLLER";
    /** The log cleaner's dedupe buffer: Kafka's 128 MB default is most of an idle broker's heap. */
    static final long DEDUPE_BUFFER_BYTES = 4L * 1024 * 1024;

    private BrokerSettings() {
    }

    /** Server properties for the given host, ports and data directory, with {@code overrides} applied last. */
    static Properties of(String host, int port, int controllerPort, Path dataDir, Properties overrides) {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", Integer.toString(NODE_ID));
        p.put("controller.quorum.voters", NODE_ID + "@" + host + ":" + controllerPort);
        p.put("listeners", "PLAINTEXT://" + host + ":" + port + "," + CONTROLLER_LISTENER + "://" + host + ":"
                + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://" + host + ":" + port);
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        p.put("controller.listener.names", CONTROLLER_LISTENER);
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", dataDir.toAbsolutePath().toString());
        p.put("num.partitions", "1");
        p.put("default.replication.factor", "1");
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("share.coordinator.state.topic.num.partitions", "1");
        p.put("min.insync.replicas", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("log.cleaner.dedupe.buffer.size", Long.toString(DEDUPE_BUFFER_BYTES));
        p.put("auto.create.topics.enable", "false");
        p.putAll(overrides);
        return p;
    }
}
