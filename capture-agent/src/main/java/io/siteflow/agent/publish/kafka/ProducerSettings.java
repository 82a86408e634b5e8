package io.siteflow.agent.publish.kafka;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The producer properties of the flow sink: durable (idempotent, acks=all), compressed, batched, and
 * quick to notice an unreachable broker so that records reach the spool within seconds. The user's
 * properties are applied last. Stateless.
 */
final class ProducerSettings {
    private ProducerSettings() {
    }

    static Map<String, Object> of(KafkaSinkConfig c) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, c.bootstrap());
        p.put(ProducerConfig.CLIENT_ID_CONFIG, c.clientId());
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
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
