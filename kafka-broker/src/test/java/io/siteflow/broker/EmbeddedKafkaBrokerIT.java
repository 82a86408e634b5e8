package io.siteflow.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.kafka.topics.SiteflowTopics;
import io.siteflow.kafka.topics.TopicAdmin;
import io.siteflow.model.wire.Topics;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaBrokerIT {
    @TempDir
    Path dir;

    @Test
    void keepsTopicsAndRecordsAcrossARestartOnTheSameDirectory() throws Exception {
        int port;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir).build()) {
            broker.start();
            port = broker.port();
            assertThat(broker.bootstrap()).isEqualTo("127.0.0.1:" + port);
            assertThat(TopicAdmin.ensureTopics(broker.bootstrap(), SiteflowTopics.SINGLE_NODE))
                    .containsExactly("siteflow.flows", "siteflow.agents", "siteflow.sites", "siteflow.verdicts",
                            "siteflow.alerts", "siteflow.isolation", "siteflow.dlq");
            assertThat(TopicAdmin.ensureTopics(broker.bootstrap(), SiteflowTopics.SINGLE_NODE)).isEmpty();
            produce(broker.bootstrap(), "10.2.0.20", "{\"id\":\"a-1\"}");
            assertThat(consume(broker.bootstrap(), 1)).containsExactly("10.2.0.20={\"id\":\"a-1\"}");
        }

        try (EmbeddedKafkaBroker again = EmbeddedKafkaBroker.builder(dir).port(port).build()) {
            again.start();
            assertThat(again.bootstrap()).isEqualTo("127.0.0.1:" + port);
            assertThat(consume(again.bootstrap(), 1)).containsExactly("10.2.0.20={\"id\":\"a-1\"}");
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, again.bootstrap()))) {
                assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS))
                        .containsAll(SiteflowTopics.SINGLE_NODE.names());
                assertThat(topicConfig(admin, "siteflow.flows").get("message.timestamp.type").value())
                        .isEqualTo("LogAppendTime");
                assertThat(topicConfig(admin, "siteflow.sites").get("cleanup.policy").value()).isEqualTo("compact");
                assertThat(admin.describeTopics(Set.of("siteflow.flows")).allTopicNames().get(30, TimeUnit.SECONDS)
                        .get("siteflow.flows").partitions()).hasSize(3);
            }
        }
    }

    @Test
    void refusesABrokerPortInUseWithAClearMessage() throws IOException {
        try (ServerSocket taken = bindAnyPort()) {
            int p = taken.getLocalPort();
            EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir).port(p).build();
            assertThatThrownBy(broker::start)
                    .isInstanceOf(BrokerStartException.class)
                    .hasMessage("broker port " + p + " on 127.0.0.1 is in use (Address already in use)");
            broker.close();
        }
    }

    @Test
    void refusesAControllerPortInUseWithAClearMessage() throws IOException {
        try (ServerSocket taken = bindAnyPort()) {
            int p = taken.getLocalPort();
            EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir).controllerPort(p).build();
            assertThatThrownBy(broker::start)
                    .isInstanceOf(BrokerStartException.class)
                    .hasMessage("controller port " + p + " on 127.0.0.1 is in use (Address already in use)");
            broker.close();
        }
    }

    @Test
    void refusesADataDirectoryFormattedForAnotherClusterOrNodeNamingBothIds() {
        try (EmbeddedKafkaBroker first = EmbeddedKafkaBroker.builder(dir).clusterId("MkU3OEVBNTcwNTJENDM2Qk").build()) {
            first.start();
        }

        EmbeddedKafkaBroker other = EmbeddedKafkaBroker.builder(dir).clusterId("AAAAAAAAAAAAAAAAAAAAAA").build();
        assertThatThrownBy(other::start).isInstanceOf(BrokerStartException.class)
                .hasMessage("data directory " + dir + " belongs to cluster MkU3OEVBNTcwNTJENDM2Qk, not "
                        + "AAAAAAAAAAAAAAAAAAAAAA (--cluster-id): give that cluster's id, or another --data-dir for a "
                        + "new cluster");
        EmbeddedKafkaBroker node2 = EmbeddedKafkaBroker.builder(dir).clusterId("MkU3OEVBNTcwNTJENDM2Qk")
                .quorum(KraftQuorum.parse(2, "2@127.0.0.1:" + Ports.free("127.0.0.1"))).build();
        assertThatThrownBy(node2::start).isInstanceOf(BrokerStartException.class)
                .hasMessage("data directory " + dir + " belongs to node 1, not 2 (--node-id): each node keeps its own "
                        + "directory");
    }

    @Test
    void refusesADataDirectoryAnotherBrokerUses() {
        try (EmbeddedKafkaBroker first = EmbeddedKafkaBroker.builder(dir).build()) {
            first.start();
            EmbeddedKafkaBroker second = EmbeddedKafkaBroker.builder(dir).build();
            assertThatThrownBy(second::start)
                    .isInstanceOf(BrokerStartException.class)
                    .hasMessage("data directory " + dir + " is in use by another broker");
            second.close();
        }
    }

    private static ServerSocket bindAnyPort() throws IOException {
        ServerSocket s = new ServerSocket();
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return s;
    }

    private static Config topicConfig(Admin admin, String topic) throws Exception {
        ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        return admin.describeConfigs(List.of(r)).all().get(30, TimeUnit.SECONDS).get(r);
    }

    private static void produce(String bootstrap, String key, String value) throws Exception {
        Map<String, Object> conf = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> p = new KafkaProducer<>(conf, new StringSerializer(), new StringSerializer())) {
            p.send(new ProducerRecord<>(Topics.FLOWS, key, value)).get(30, TimeUnit.SECONDS);
        }
    }

    private static List<String> consume(String bootstrap, int expected) {
        Map<String, Object> conf = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<String> seen = new ArrayList<>();
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(conf, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(Topics.FLOWS, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                    seen.add(r.key() + "=" + new String(r.value().getBytes(StandardCharsets.UTF_8),
                            StandardCharsets.UTF_8));
                }
                return seen.size() >= expected;
            });
        }
        return seen;
    }
}
