package io.siteflow.processor.app;

import io.siteflow.kafka.BrokerReachability;
import io.siteflow.kafka.topics.SiteflowTopics;
import io.siteflow.kafka.topics.TopicAdmin;
import io.siteflow.kafka.topics.TopicCheck;
import java.util.List;
import io.siteflow.processor.topology.TopologySpec;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code siteflow process} does before Kafka Streams starts: creates the missing siteflow topics and
 * publishes the site model YAML on {@code siteflow.sites} under key {@code sites} (compacted: the newest model
 * wins, every instance and restart reads it). Stateless.
 */
final class Startup {
    private static final Logger LOG = LoggerFactory.getLogger(Startup.class);
    private static final Duration BROKER_CHECK = Duration.ofSeconds(10);
    private Startup() {
    }

    /**
     * @throws IllegalStateException {@code kafka ADDRESS: connection refused} (or DNS, TLS handshake, authentication:
     *                               {@link BrokerReachability}) when the cluster cannot be used, within ~10 s;
     *                               naming the step when Kafka refuses or does not answer within 30 s, or when
     *                               {@code siteflow.flows} and the topology's {@code by-server} topic disagree on
     *                               their partition count ({@link #checkPartitions})
     * @param autoReplication true when {@code --replication-factor} was not given: the topics get
     *                        {@link #replicationForCluster}
     * @return the settings the processor runs with (with the cluster's replication when {@code autoReplication})
     */
    static ProcessorSettings prepare(ProcessorSettings given, String yaml, boolean autoReplication) {
        requireBroker(given);
        ProcessorSettings settings = autoReplication ? given.withTopics(replicationForCluster(given)) : given;
        try (Admin admin = Admin.create(client(settings))) {
            TopicAdmin.ensureTopics(admin, settings.topics());
            requireSafe(TopicCheck.run(admin, settings.topics().names()));
            checkPartitions(admin, settings.streamsProperties().getProperty(StreamsConfig.APPLICATION_ID_CONFIG));
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
        return settings;
    }

    /** Within ~10 s, the address tried and what failed: refused, DNS, TLS handshake, authentication. */
    private static void requireBroker(ProcessorSettings settings) {
        boolean tls = String.valueOf(settings.kafka().get(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG))
                .toUpperCase(java.util.Locale.ROOT).endsWith("SSL");
        BrokerReachability.check(settings.bootstrap(), tls, BROKER_CHECK, () -> {
            try (Admin admin = Admin.create(client(settings))) {
                return admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) BROKER_CHECK.toMillis()))
                        .clusterId().get();
            }
        }).ifPresent(problem -> {
            throw new IllegalStateException(problem);
        });
    }

    /**
     * The replication the siteflow topics get when {@code --replication-factor} is not given:
     * {@link SiteflowTopics#forBrokers} of the cluster's broker count.
     *
     * @throws IllegalStateException naming the bootstrap when the cluster does not answer within 30 s
     */
    static SiteflowTopics replicationForCluster(ProcessorSettings settings) {
        try (Admin admin = Admin.create(client(settings))) {
            int brokers = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size();
            return SiteflowTopics.forBrokers(settings.topics().partitions(), Math.max(1, brokers));
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("topics: cannot count the brokers of " + settings.bootstrap() + ": "
                    + (e.getCause() != null ? e.getCause() : e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("topics: interrupted while counting the brokers", e);
        }
    }

    /**
     * Refuses to start on a topic unsafe for its job (the rows {@code siteflow topics check} marks unsafe) and
     * logs each warning once.
     */
    static void requireSafe(TopicCheck check) {
        check.rows(TopicCheck.Status.WARN).forEach(r -> LOG.warn("topic {}: {}", r.topic(),
                String.join("; ", r.findings())));
        List<TopicCheck.Row> unsafe = check.rows(TopicCheck.Status.UNSAFE);
        if (!unsafe.isEmpty()) {
            throw new IllegalStateException("unsafe topics, refusing to start: " + unsafe.stream()
                    .map(r -> r.topic() + ": " + String.join("; ", r.findings()))
                    .collect(java.util.stream.Collectors.joining("; "))
                    + " (siteflow topics check prints them all; docs/OPERATIONS.md, \"Topic safety\")");
        }
    }

    /**
     * The {@code by-server} topic gets the partition count {@code siteflow.flows} had when the application first
     * ran, and Kafka Streams neither changes it nor runs with a different one (the task of partition p reads both
     * topics' partition p). Partitions added to {@code siteflow.flows} later would also move servers to other
     * tasks, away from their aggregates: say so before starting, with the way out.
     */
    static void checkPartitions(Admin admin, String applicationId) {
        String byServer = TopologySpec.byServerTopic(applicationId);
        OptionalInt moved = TopicAdmin.partitions(admin, byServer);
        OptionalInt flows = TopicAdmin.partitions(admin, TopologySpec.FLOWS);
        if (moved.isPresent() && flows.isPresent() && moved.getAsInt() != flows.getAsInt()) {
            throw new IllegalStateException(TopologySpec.FLOWS + " has " + flows.getAsInt() + " partitions but "
                    + byServer + " has " + moved.getAsInt() + ", the count " + TopologySpec.FLOWS + " had when "
                    + "application " + applicationId + " first ran; the audit state is spread over tasks by that "
                    + "count, and Kafka cannot take partitions away. Run with a new --application-id, which builds "
                    + "its state again from the records " + TopologySpec.FLOWS + " still holds (docs/OPERATIONS.md, "
                    + "\"Sizing\")");
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
    static Map<String, Object> client(ProcessorSettings settings) {
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
