package io.siteflow.processor.app;

import io.siteflow.processor.broker.SiteflowTopics;
import io.siteflow.processor.broker.TopicAdmin;
import io.siteflow.processor.topology.TopologySpec;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code siteflow process} does before Kafka Streams starts: creates the missing siteflow topics and
 * publishes the site model YAML on {@code siteflow.sites} under key {@code sites} (compacted: the newest model
 * wins, every instance and restart reads it). Stateless.
 */
final class Startup {
    private static final Logger LOG = LoggerFactory.getLogger(Startup.class);
    private Startup() {
    }

    /** @throws IllegalStateException naming the step when Kafka refuses or does not answer within 30 s */
    static void prepare(ProcessorSettings settings, String yaml) {
        try (Admin admin = Admin.create(client(settings))) {
            TopicAdmin.ensureTopics(admin, settings.topics());
        } catch (TopicAdmin.TopicAdminException e) {
            throw new IllegalStateException("topics: " + e.getMessage(), e);
        }
        Map<String, Object> producer = client(settings);
        producer.put(ProducerConfig.ACKS_CONFIG, "all");
        producer.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000);
        try (KafkaProducer<String, String> p = new KafkaProducer<>(producer, new StringSerializer(),
                new StringSerializer())) {
            p.send(new ProducerRecord<>(TopologySpec.SITES, TopologySpec.SITES_KEY, yaml)).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            throw new IllegalStateException("publish site model: " + (e.getCause() != null ? e.getCause() : e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("publish site model: interrupted", e);
        }
    }

    /**
     * The partitions of {@code siteflow.flows}, which the topology's {@code by-server} topic gets too (see
     * {@code RouteStep}); the configured count when the topic does not exist yet or Kafka does not answer.
     */
    static int flowsPartitions(ProcessorSettings settings) {
        try (Admin admin = Admin.create(client(settings))) {
            return TopicAdmin.partitions(admin, TopologySpec.FLOWS).orElse(settings.topics().partitions());
        } catch (TopicAdmin.TopicAdminException e) {
            LOG.warn("{}; the by-server topic gets {} partitions", e.getMessage(), settings.topics().partitions());
            return settings.topics().partitions();
        }
    }

    /** The bootstrap and the {@code --kafka} properties a plain client understands (drops Streams-only ones). */
    private static Map<String, Object> client(ProcessorSettings settings) {
        Map<String, Object> all = new HashMap<>(settings.kafka());
        all.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrap());
        Map<String, Object> out = new HashMap<>();
        all.forEach((k, v) -> {
            if (k.equals(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) || k.startsWith("security.")
                    || k.startsWith("ssl.") || k.startsWith("sasl.") || k.startsWith("client.")) {
                out.put(k, v);
            }
        });
        return out;
    }
}
