package io.siteflow.systemtest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.publish.kafka.KafkaFlowSink;
import io.siteflow.agent.publish.kafka.KafkaSinkConfig;
import io.siteflow.agent.publish.kafka.PublishStats;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.wire.Topics;
import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.broker.SecureBrokers;
import io.siteflow.broker.SiteflowAcls;
import io.siteflow.kafka.topics.SiteflowTopics;
import io.siteflow.broker.TestPki;
import io.siteflow.kafka.topics.TopicAdmin;
import io.siteflow.synth.SyntheticCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's publisher on a SASL_SSL broker with {@code StandardAuthorizer}: a principal without the WRITE ACL on
 * {@code siteflow.flows} gets one error naming the principal, the operation and the topic, keeps every record in
 * its spool, and delivers them, exactly once each, as soon as an administrator grants the ACL, without a restart;
 * an agent without SASL credentials is refused by the broker and told so.
 */
class AgentAclIT {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final int RECORDS = 60;

    @TempDir
    Path dir;

    private final String adminPassword = "admin-" + UUID.randomUUID();
    private final String agentPassword = "agent2-" + UUID.randomUUID();

    @Test
    void anAgentWithoutTheWriteAclOnFlowsSpoolsAndDeliversOnceItIsGranted() throws Exception {
        List<AclBinding> all = SiteflowAcls.agent("User:agent2");
        List<AclBinding> writeFlows = all.stream().filter(a -> a.pattern().name().equals(Topics.FLOWS)
                && a.entry().operation() == AclOperation.WRITE).toList();
        List<AclBinding> others = new ArrayList<>(all);
        others.removeAll(writeFlows);
        spoolsUntilGranted(others, writeFlows,
                "kafka: principal User:agent2 may not WRITE topic siteflow.flows (ACL)");
    }

    /**
     * No ACL at all: the producer's first request (InitProducerId) is refused for want of IDEMPOTENT_WRITE on the
     * cluster or WRITE on any topic, and all three are named.
     */
    @Test
    void anAgentWithoutAnyAclSpoolsAndDeliversOnceItsAclsAreGranted() throws Exception {
        spoolsUntilGranted(List.of(), SiteflowAcls.agent("User:agent2"),
                "kafka: principal User:agent2 may not WRITE topic siteflow.flows, WRITE topic siteflow.agents, "
                        + "IDEMPOTENT_WRITE cluster (ACL)");
    }

    private void spoolsUntilGranted(List<AclBinding> before, List<AclBinding> later, String problem)
            throws Exception {
        TestPki pki = TestPki.create(dir);
        try (EmbeddedKafkaBroker broker = SecureBrokers.saslSsl(dir.resolve("kafka"), pki, adminPassword,
                Map.of("agent2", agentPassword)).build()) {
            broker.start();
            try (Admin admin = Admin.create(broker.clientConfig())) {
                TopicAdmin.ensureTopics(admin, SiteflowTopics.SINGLE_NODE);
            }
            if (!before.isEmpty()) {
                SecureBrokers.grant(broker, before);
            }
            List<FlowRecord> records = SyntheticCluster.flows(RECORDS, 1_000, "acl");
            try (KafkaFlowSink sink = KafkaFlowSink.start(KafkaSinkConfig.builder(broker.bootstrap(),
                    dir.resolve("spool")).clientProperties(SecureBrokers.scramClient(pki, "agent2", agentPassword))
                    .retryInterval(Duration.ofMillis(200)).build())) {
                assertThat(sink.brokerProblem()).contains(problem);
                records.forEach(sink::accept);
                sink.flush();
                assertThat(sink.stats()).as("refused: all in the spool")
                        .isEqualTo(new PublishStats(RECORDS, 0, RECORDS, 0, 0, 0, RECORDS, sink.stats().spoolBytes(),
                                0, true));

                SecureBrokers.grant(broker, later);
                Awaitility.await("spool delivered").atMost(WAIT).until(() -> !sink.stats().outage());
                assertThat(sink.stats()).as("granted: all replayed")
                        .isEqualTo(new PublishStats(RECORDS, RECORDS, RECORDS, RECORDS, 0, 0, 0, 0, 0, false));
            }
            assertThat(ids(broker, RECORDS)).containsExactlyInAnyOrderElementsOf(
                    records.stream().map(FlowRecord::id).toList());
        }
    }

    @Test
    void anAgentWithoutCredentialsIsRefusedAndToldSo() throws Exception {
        TestPki pki = TestPki.create(dir);
        try (EmbeddedKafkaBroker broker = SecureBrokers.saslSsl(dir.resolve("kafka"), pki, adminPassword,
                Map.of()).build()) {
            broker.start();
            try (KafkaFlowSink sink = KafkaFlowSink.start(KafkaSinkConfig.builder(broker.bootstrap(),
                    dir.resolve("spool")).clientProperties(SecureBrokers.trusting(pki, "SSL")).build())) {
                assertThat(sink.brokerProblem()).isEqualTo(Optional.of("kafka " + broker.bootstrap()
                        + ": no Kafka answer within 10 s (TCP connects; the listener may not speak Kafka, or its "
                        + "TLS/SASL settings differ from the client's)"));
            }
        }
    }

    /** The ids of the records on {@code siteflow.flows}, read as the broker's super user after {@code expected}. */
    private static List<String> ids(EmbeddedKafkaBroker broker, int expected) {
        Map<String, Object> c = new HashMap<>(broker.clientConfig());
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<String> ids = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> parts = consumer.partitionsFor(Topics.FLOWS, WAIT).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Awaitility.await("records on " + Topics.FLOWS).atMost(WAIT).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> ids.add(id(r.value())));
                return ids.size() >= expected;
            });
            consumer.poll(Duration.ofSeconds(1)).forEach(r -> ids.add(id(r.value()))); // and none more
        }
        return ids;
    }

    private static String id(String json) {
        return json.replaceAll(".*\"id\":\"([^\"]+)\".*", "$1");
    }
}
