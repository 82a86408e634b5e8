package io.siteflow.agent.publish.kafka;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The producer properties of the flow sink: durable (idempotent, acks=all), compressed, batched, and
 * quick to notice an unreachable broker so that records reach the spool within seconds. The user's
 * properties are applied last. Public for the cluster soak's load generator (bench), which sends with the agent's
 * settings. Stateless.
 */
public final class ProducerSettings {
    private ProducerSettings() {
    }

    /** The producer properties of a flow sink with these settings (a new, mutable map). */
    public static Map<String, Object> of(KafkaSinkConfig c) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, c.bootstrap());
        p.put(ProducerConfig.CLIENT_ID_CONFIG, c.clientId());
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        // one request at a time: with more, a partition's first batch failing on a topic that is just being
        // created (NOT_LEADER_OR_FOLLOWER) is overtaken by the next, which a Kafka 4.4 broker takes as the
        // producer's first (KAFKA-15591) and then refuses the retries as out of order until they time out and go
        // to the spool, late: measured 8 of 10 rounds with 5 in flight, 0 of 10 with 1
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, "131072");
        // a record not acknowledged within 15 s goes to the spool
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "15000");
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        // the sender thread, never the capture thread, waits this long for metadata or buffer space
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "2000");
        p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "1000");
        p.putAll(c.clientOverrides());
        return p;
    }
}
