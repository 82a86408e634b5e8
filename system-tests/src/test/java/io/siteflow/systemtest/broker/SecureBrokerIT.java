package io.siteflow.systemtest.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.broker.LogCapture;
import io.siteflow.broker.SecureBrokers;
import io.siteflow.broker.SiteflowAcls;
import io.siteflow.broker.TestPki;
import io.siteflow.kafka.topics.SiteflowTopics;
import io.siteflow.kafka.topics.TopicAdmin;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.model.wire.Topics;
import io.siteflow.processor.app.ProcessCommand;
import io.siteflow.synth.SyntheticCluster;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A broker with a SASL_SSL client listener (SCRAM-SHA-512, a certificate from a test CA) and Kafka's
 * {@code StandardAuthorizer}: the ACLs of {@link SiteflowAcls} let the agent's and the processor's principals do
 * their jobs and nothing else, a client without valid credentials is refused, and no log line carries a secret.
 */
class SecureBrokerIT {
    private static final long T0 = 1_764_000_000_000L;
    private static final String APP = "it-secure";

    @TempDir
    Path dir;

    private final String adminPassword = "admin-" + UUID.randomUUID();
    private final String agentPassword = "agent-" + UUID.randomUUID();
    private final String processorPassword = "processor-" + UUID.randomUUID();
    private TestPki pki;

    @Test
    void eachPrincipalDoesItsJobAndNothingElseAndNoSecretIsLogged() throws Exception {
        pki = TestPki.create(dir);
        LogCapture logs = LogCapture.of("kafka", "org.apache.kafka", "io.siteflow");
        EmbeddedKafkaBroker.Builder b = SecureBrokers.saslSsl(dir.resolve("kafka"), pki, adminPassword,
                Map.of("agent", agentPassword, "processor", processorPassword));
        try (EmbeddedKafkaBroker broker = b.build()) {
            broker.start();
            String bootstrap = broker.bootstrap();
            try (Admin admin = Admin.create(broker.clientConfig())) {
                TopicAdmin.ensureTopics(admin, SiteflowTopics.SINGLE_NODE);
            }
            List<AclBinding> acls = new ArrayList<>(SiteflowAcls.agent("User:agent"));
            acls.addAll(SiteflowAcls.processor("User:processor", APP));
            SecureBrokers.grant(broker, acls);

            // the agent writes flow records, and nothing it has no ACL for
            try (KafkaProducer<byte[], byte[]> agent = producer(bootstrap, "agent", agentPassword)) {
                agent.send(new ProducerRecord<>(Topics.FLOWS, bytes("10.2.0.20"),
                        FlowRecordJson.toBytes(record()))).get(60, TimeUnit.SECONDS);
                assertThatThrownBy(() -> agent.send(new ProducerRecord<>(Topics.VERDICTS, bytes("x"), bytes("{}")))
                        .get(60, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                        .cause().isInstanceOf(TopicAuthorizationException.class)
                        .hasMessage("Not authorized to access topics: [siteflow.verdicts]");
            }

            // the processor runs on its ACLs alone, with the client settings from --kafka-config
            Path config = SecureBrokers.write(dir.resolve("processor.properties"),
                    SecureBrokers.scramClient(pki, "processor", processorPassword));
            Path sites = Files.writeString(dir.resolve("sites.yaml"), SyntheticCluster.SITES);
            ProcessCommand command = new ProcessCommand(null);
            StringWriter err = new StringWriter();
            CommandLine cl = ProcessCommand.commandLine(command).setErr(new PrintWriter(err, true))
                    .setOut(new PrintWriter(new StringWriter(), true));
            CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> cl.execute("--bootstrap", bootstrap,
                    "--sites", sites.toString(), "--kafka-config", config.toString(), "--application-id", APP,
                    "--state-dir", dir.resolve("state").toString(), "--kafka", "commit.interval.ms=100"));
            try {
                Awaitility.await("processor running").atMost(Duration.ofMinutes(2)).until(() -> exit.isDone()
                        || command.runtime().map(rt -> rt.streams().state() == KafkaStreams.State.RUNNING)
                        .orElse(false));
                assertThat(exit).as("exit early: %s", err).isNotDone();
                try (KafkaProducer<byte[], byte[]> agent = producer(bootstrap, "agent", agentPassword)) {
                    FlowRecord later = FlowRecord.builder().id("s-2").agent("edge-b").iface("eth0")
                            .time(T0 + 70_000, T0 + 70_000).endpoints(6, "10.2.0.20", 40001, "10.1.0.10", 1521)
                            .forward(100, 1, 100, 0x18).build();
                    agent.send(new ProducerRecord<>(Topics.FLOWS, bytes("10.2.0.20"), FlowRecordJson.toBytes(later)))
                            .get(60, TimeUnit.SECONDS);
                }
                assertThat(consume(broker, Topics.VERDICTS)).startsWith("10.2.0.20|region1={");

                // a processor's principal cannot write what agents write
                try (KafkaProducer<byte[], byte[]> processor = producer(bootstrap, "processor", processorPassword)) {
                    assertThatThrownBy(() -> processor.send(new ProducerRecord<>(Topics.FLOWS, bytes("x"),
                            bytes("{}"))).get(60, TimeUnit.SECONDS)).cause()
                            .isInstanceOf(TopicAuthorizationException.class)
                            .hasMessage("Not authorized to access topics: [siteflow.flows]");
                }
            } finally {
                command.stop();
                exit.get(60, TimeUnit.SECONDS);
            }

            // a wrong password is refused by the broker
            Map<String, Object> wrong = new HashMap<>(SecureBrokers.scramClient(pki, "agent", "not-" + agentPassword));
            wrong.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            wrong.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
            try (Admin a = Admin.create(wrong)) {
                assertThatThrownBy(() -> a.listTopics().names().get(60, TimeUnit.SECONDS)).cause()
                        .isInstanceOf(SaslAuthenticationException.class)
                        .hasMessage("Authentication failed during authentication due to invalid credentials with "
                                + "SASL mechanism SCRAM-SHA-512");
            }
        } finally {
            logs.close();
        }
        List<String> lines = logs.lines();
        assertThat(lines).as("log lines").hasSizeGreaterThan(1_000)
                .anyMatch(l -> l.startsWith("effective configuration: "))
                .anyMatch(l -> l.contains("sasl.jaas.config = [hidden]"));
        for (String secret : List.of(adminPassword, agentPassword, processorPassword, pki.password(),
                "ScramLoginModule required")) {
            assertThat(lines).as("log lines with %s", secret).noneMatch(l -> l.contains(secret));
        }
    }

    private KafkaProducer<byte[], byte[]> producer(String bootstrap, String user, String password) {
        Map<String, Object> c = new HashMap<>(SecureBrokers.scramClient(pki, user, password));
        c.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ProducerConfig.ACKS_CONFIG, "all");
        c.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000);
        return new KafkaProducer<>(c, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** The first record of {@code topic} as {@code key=value}, read as the admin. */
    private static String consume(EmbeddedKafkaBroker broker, String topic) {
        Map<String, Object> c = new HashMap<>(broker.clientConfig());
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> parts = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            List<String> seen = new ArrayList<>();
            Awaitility.await("a record on " + topic).atMost(Duration.ofMinutes(1)).until(() -> {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    seen.add(r.key() + "=" + r.value());
                }
                return !seen.isEmpty();
            });
            return seen.get(0);
        }
    }

    private static FlowRecord record() {
        return FlowRecord.builder().id("s-1").agent("edge-b").iface("eth0").time(T0, T0)
                .endpoints(6, "10.2.0.20", 40000, "10.1.0.10", 1521).forward(9_500, 1, 9_500, 0x18).build();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
