package io.siteflow.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.kafka.topics.SiteflowTopics;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SiteflowTopicsTest {
    @Test
    void listsTheSevenTopicsWithTheirConfigs() {
        SiteflowTopics spec = new SiteflowTopics(6, (short) 3);
        assertThat(spec.names()).containsExactly("siteflow.flows", "siteflow.agents", "siteflow.sites",
                "siteflow.verdicts", "siteflow.alerts", "siteflow.isolation", "siteflow.dlq");
        assertThat(spec.topics().get(0)).isEqualTo(new SiteflowTopics.Topic("siteflow.flows", 6, (short) 3,
                Map.of("message.timestamp.type", "LogAppendTime", "min.insync.replicas", "2")));
        assertThat(spec.topics().get(2)).isEqualTo(new SiteflowTopics.Topic("siteflow.sites", 1, (short) 3,
                Map.of("cleanup.policy", "compact", "min.insync.replicas", "2")));
        assertThat(spec.topics().get(5)).isEqualTo(new SiteflowTopics.Topic("siteflow.isolation", 6, (short) 3,
                Map.of("cleanup.policy", "compact,delete", "message.timestamp.type", "LogAppendTime",
                        "retention.ms", "2592000000", "min.insync.replicas", "2")));
        assertThat(spec.topics().get(6).configs()).isEqualTo(Map.of("min.insync.replicas", "2"));
    }

    @Test
    void belowReplicationThreeTheTopicsKeepTheBrokersMinInsyncReplicas() {
        SiteflowTopics spec = SiteflowTopics.forBrokers(3, 2);
        assertThat(spec.replicationFactor()).isEqualTo((short) 2);
        assertThat(spec.minInsyncReplicas()).isEqualTo(1);
        assertThat(spec.topics().get(0).configs()).isEqualTo(Map.of("message.timestamp.type", "LogAppendTime"));
        assertThat(spec.topics().get(6).configs()).isEmpty();
    }

    @Test
    void aClusterOfThreeOrMoreBrokersGetsReplicationThree() {
        assertThat(SiteflowTopics.forBrokers(3, 1).replicationFactor()).isEqualTo((short) 1);
        assertThat(SiteflowTopics.forBrokers(3, 3).replicationFactor()).isEqualTo((short) 3);
        assertThat(SiteflowTopics.forBrokers(3, 7).replicationFactor()).isEqualTo((short) 3);
        assertThatThrownBy(() -> SiteflowTopics.forBrokers(3, 0)).hasMessage("a cluster has at least 1 broker, got 0");
    }

    @Test
    void rejectsImpossiblePartitionsAndReplication() {
        assertThatThrownBy(() -> new SiteflowTopics(0, (short) 1))
                .hasMessage("partitions must be at least 1, got 0");
        assertThatThrownBy(() -> new SiteflowTopics(1, (short) 0))
                .hasMessage("replication factor must be at least 1, got 0");
    }

    @Test
    void brokerBuilderRejectsBadPorts() {
        EmbeddedKafkaBroker.Builder b = EmbeddedKafkaBroker.builder(Path.of("unused"));
        assertThatThrownBy(() -> b.port(70000)).hasMessage("port 70000 is not a port (0-65535)");
        assertThatThrownBy(() -> b.controllerPort(-1)).hasMessage("controller port -1 is not a port (0-65535)");
        assertThatThrownBy(() -> b.port(9092).controllerPort(9092).build())
                .hasMessage("port and controller port must differ, both are 9092");
    }

    @Test
    void singleNodeSettingsNameBothListenersAndTheVoter() {
        var p = BrokerSettings.of(KraftQuorum.single("127.0.0.1", 39093), new KraftQuorum.HostPort("127.0.0.1", 39092),
                new KraftQuorum.HostPort("127.0.0.1", 39092), Path.of("/data/kafka"), new java.util.Properties());
        assertThat(p.getProperty("controller.quorum.voters")).isEqualTo("1@127.0.0.1:39093");
        assertThat(p.getProperty("listeners")).isEqualTo("CLIENT://127.0.0.1:39092,CONTROLLER://127.0.0.1:39093");
        assertThat(p.getProperty("node.id")).isEqualTo("1");
        assertThat(p.getProperty("advertised.listeners")).isEqualTo("CLIENT://127.0.0.1:39092");
        assertThat(p.getProperty("offsets.topic.replication.factor")).isEqualTo("1");
        assertThat(p.getProperty("min.insync.replicas")).isEqualTo("1");
        assertThat(p.getProperty("share.coordinator.state.topic.replication.factor")).isEqualTo("1");
        assertThat(p.getProperty("log.cleaner.dedupe.buffer.size")).isEqualTo("4194304");
        assertThat(p.getProperty("log.dirs")).isEqualTo("/data/kafka");
    }
}
