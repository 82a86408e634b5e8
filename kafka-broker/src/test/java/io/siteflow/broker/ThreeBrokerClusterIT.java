package io.siteflow.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.kafka.topics.SiteflowTopics;
import io.siteflow.kafka.topics.TopicCheck;
import io.siteflow.model.wire.Topics;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Three {@code siteflow broker} nodes in child JVMs form one KRaft cluster on loopback: the siteflow topics get
 * replication 3 and {@code min.insync.replicas=2}, {@code topics check} says so, and acknowledged records survive
 * the SIGKILL of the leader of {@code siteflow.flows} partition 0, exactly once.
 */
class ThreeBrokerClusterIT {
    private static final String CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qk";

    @TempDir
    Path dir;

    private final List<ChildBroker> nodes = new ArrayList<>();

    @AfterEach
    void stopNodes() throws InterruptedException {
        for (ChildBroker n : nodes) {
            n.close();
        }
    }

    @Test
    void formsAClusterReplicatesThreeTimesAndLosesNothingWhenTheLeaderIsKilled() throws Exception {
        int[] client = new int[3];
        StringBuilder voters = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            client[i] = Ports.free("127.0.0.1");
            voters.append(i == 0 ? "" : ",").append(i + 1).append("@127.0.0.1:").append(Ports.free("127.0.0.1"));
        }
        Path logs = Files.createDirectories(Path.of("target", "it-logs"));
        List<Path> logFiles = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Path log = logs.resolve("three-broker-cluster-node" + (i + 1) + ".log");
            Files.deleteIfExists(log);
            logFiles.add(log);
            nodes.add(ChildBroker.start(log, List.of("--cluster-id", CLUSTER_ID, "--node-id", Integer.toString(i + 1),
                    "--voters", voters.toString(), "--listen", "127.0.0.1:" + client[i],
                    "--data-dir", dir.resolve("node" + (i + 1)).toString())));
        }
        String bootstrap = "127.0.0.1:" + client[0] + ",127.0.0.1:" + client[1] + ",127.0.0.1:" + client[2];
        for (int i = 0; i < 3; i++) {
            ChildBroker n = nodes.get(i);
            String address = "127.0.0.1:" + client[i];
            Awaitility.await("node " + (i + 1) + " up").atMost(Duration.ofMinutes(4))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> n.starts(address) == 1 || !n.alive());
            assertThat(n.alive()).as("node %d: %s", i + 1, n.tail()).isTrue();
        }

        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            Awaitility.await("siteflow topics created").atMost(Duration.ofMinutes(2)).ignoreExceptions()
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> admin.listTopics().names().get(30, TimeUnit.SECONDS)
                            .containsAll(SiteflowTopics.SINGLE_NODE.names()));
            TopicCheck check = TopicCheck.run(admin, SiteflowTopics.SINGLE_NODE.names());
            assertThat(check.brokers()).isEqualTo(3);
            assertThat(check.rows()).allSatisfy(r -> {
                assertThat(r.status()).as(r.topic()).isEqualTo(TopicCheck.Status.OK);
                assertThat(r.replicationFactor()).as(r.topic()).isEqualTo(3);
                assertThat(r.minInsyncReplicas()).as(r.topic()).isEqualTo(2);
            });

            // a topic someone made by hand with replication 1 is a warning, not a refusal (its own
            // min.insync.replicas=1: the cluster's default of 2 would make every acks=all write fail, which is unsafe)
            admin.deleteTopics(List.of(Topics.DLQ)).all().get(30, TimeUnit.SECONDS);
            Awaitility.await().atMost(Duration.ofMinutes(1)).ignoreExceptions().until(() -> !admin.listTopics().names()
                    .get(30, TimeUnit.SECONDS).contains(Topics.DLQ));
            admin.createTopics(List.of(new NewTopic(Topics.DLQ, 3, (short) 1).configs(Map.of("min.insync.replicas",
                    "1")))).all().get(30, TimeUnit.SECONDS);
            StringWriter out = new StringWriter();
            int code = new CommandLine(new TopicsCommand()).setOut(new PrintWriter(out, true))
                    .execute("check", "--bootstrap", bootstrap);
            assertThat(out.toString()).contains("(3 brokers):\n")
                    .contains("siteflow.flows              3        3        2  ok\n")
                    .contains("siteflow.dlq                3        1        1  warn    replication factor 1 on a "
                            + "3-broker cluster: losing one broker loses this topic's records\n")
                    .endsWith("0 unsafe, 1 warning, 0 missing\n");
            assertThat(code).isEqualTo(0);

            // acknowledged records survive the SIGKILL of partition 0's leader, none doubled
            Set<String> sent = new HashSet<>();
            try (KafkaProducer<String, String> p = producer(bootstrap)) {
                send(p, sent, 0, 300);
                int leader = leader(admin, 0);
                nodes.get(leader - 1).kill();
                send(p, sent, 300, 600);
                Awaitility.await("new leader of " + Topics.FLOWS + "-0").atMost(Duration.ofMinutes(1)).ignoreExceptions()
                        .until(() -> leader(admin, 0) != leader);

                ChildBroker back = nodes.get(leader - 1).restart();
                nodes.set(leader - 1, back);
                String address = "127.0.0.1:" + client[leader - 1];
                Awaitility.await("node " + leader + " back").atMost(Duration.ofMinutes(3))
                        .pollInterval(Duration.ofMillis(500)).until(() -> back.starts(address) == 2 || !back.alive());
                assertThat(back.alive()).as(back.tail()).isTrue();
                Awaitility.await("in-sync replicas of " + Topics.FLOWS + " back to 3").atMost(Duration.ofMinutes(2))
                        .ignoreExceptions()
                        .until(() -> flows(admin).partitions().stream().allMatch(pi -> pi.isr().size() == 3));
                send(p, sent, 600, 900);
            }
            assertThat(consumeAll(bootstrap, 900)).containsExactlyInAnyOrderElementsOf(sent);
        }
    }

    private static void send(KafkaProducer<String, String> p, Set<String> sent, int from, int to) throws Exception {
        List<java.util.concurrent.Future<?>> acks = new ArrayList<>();
        for (int i = from; i < to; i++) {
            String value = "record-" + i;
            acks.add(p.send(new ProducerRecord<>(Topics.FLOWS, "server-" + (i % 7), value)));
            sent.add(value);
        }
        for (var f : acks) {
            f.get(2, TimeUnit.MINUTES);
        }
    }

    private static KafkaProducer<String, String> producer(String bootstrap) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000), new StringSerializer(), new StringSerializer());
    }

    private static TopicDescription flows(Admin admin) throws Exception {
        return admin.describeTopics(List.of(Topics.FLOWS)).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(Topics.FLOWS);
    }

    private static int leader(Admin admin, int partition) throws Exception {
        TopicPartitionInfo info = flows(admin).partitions().get(partition);
        return info.leader() == null ? -1 : info.leader().id();
    }

    private static List<String> consumeAll(String bootstrap, int expected) {
        Map<String, Object> conf = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<String> seen = new ArrayList<>();
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(conf, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(Topics.FLOWS, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).collect(Collectors.toList());
            c.assign(parts);
            c.seekToBeginning(parts);
            Awaitility.await("all " + expected + " records").atMost(Duration.ofMinutes(1)).until(() -> {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                    seen.add(r.value());
                }
                return seen.size() >= expected;
            });
            // nothing more than what was sent arrives after the expected count
            for (ConsumerRecord<String, String> r : c.poll(Duration.ofSeconds(1))) {
                seen.add(r.value());
            }
        }
        return seen;
    }
}
