package io.siteflow.broker;

import io.siteflow.kafka.topics.SiteflowTopics;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The Kafka server properties of a KRaft node that is both broker and controller: a single-node broker, or one
 * node of a cluster whose voters are all such nodes. Pure function of its inputs; see
 * {@code stream-processor/README.md} for why each value is set.
 */
final class BrokerSettings {
    static final String CONTROLLER_LISTENER = "CONTROLLER";
    /** The listener clients and the other brokers use; plaintext unless {@code --broker-config} maps it. */
    static final String CLIENT_LISTENER = "CLIENT";
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
        p.put("listeners", CLIENT_LISTENER + "://" + listen + "," + CONTROLLER_LISTENER + "://"
                + new KraftQuorum.HostPort(self.host(), self.port()));
        p.put("advertised.listeners", CLIENT_LISTENER + "://" + advertised);
        p.put("listener.security.protocol.map", CLIENT_LISTENER + ":PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        p.put("controller.listener.names", CONTROLLER_LISTENER);
        p.put("inter.broker.listener.name", CLIENT_LISTENER);
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

    /**
     * The client properties the node's own admin calls use on its client listener: the security protocol the
     * listener is mapped to, and, as the other brokers do, the inter-broker SASL mechanism with the listener's
     * JAAS login and the node's TLS trust and key stores.
     */
    static java.util.Map<String, Object> selfClient(Properties server) {
        java.util.Map<String, Object> c = new java.util.HashMap<>();
        String protocol = "PLAINTEXT";
        for (String entry : server.getProperty("listener.security.protocol.map", "").split(",")) {
            String[] kv = entry.split(":", 2);
            if (kv.length == 2 && kv[0].strip().equals(CLIENT_LISTENER)) {
                protocol = kv[1].strip();
            }
        }
        c.put("security.protocol", protocol);
        if (protocol.startsWith("SASL")) {
            String mechanism = server.getProperty("sasl.mechanism.inter.broker.protocol", "GSSAPI");
            c.put("sasl.mechanism", mechanism);
            String jaas = server.getProperty("listener.name." + CLIENT_LISTENER.toLowerCase(java.util.Locale.ROOT)
                    + "." + mechanism.toLowerCase(java.util.Locale.ROOT) + ".sasl.jaas.config",
                    server.getProperty("sasl.jaas.config"));
            if (jaas != null) {
                c.put("sasl.jaas.config", jaas);
            }
        }
        if (protocol.endsWith("SSL")) {
            for (String key : server.stringPropertyNames()) {
                if (key.startsWith("ssl.truststore.") || key.startsWith("ssl.keystore.") || key.equals("ssl.key.password")
                        || key.equals("ssl.endpoint.identification.algorithm")) {
                    c.put(key, server.getProperty(key));
                }
            }
        }
        return c;
    }
}
