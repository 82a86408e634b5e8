package io.siteflow.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class KraftQuorumTest {
    @Test
    void parsesVotersWithIpv6InBracketsAndFindsItsOwnEntry() {
        KraftQuorum q = KraftQuorum.parse(2, "1@kafka1:9093, 2@[fd00::2]:9093,3@10.2.0.3:19093");

        assertThat(q.voters()).containsExactly(new KraftQuorum.Voter(1, "kafka1", 9093),
                new KraftQuorum.Voter(2, "fd00::2", 9093), new KraftQuorum.Voter(3, "10.2.0.3", 19093));
        assertThat(q.self()).isEqualTo(new KraftQuorum.Voter(2, "fd00::2", 9093));
        assertThat(q.spelled()).isEqualTo("1@kafka1:9093,2@[fd00::2]:9093,3@10.2.0.3:19093");
        assertThat(q.size()).isEqualTo(3);
    }

    @Test
    void refusesEntriesThatAreNotIdAtHostPort() {
        assertThatThrownBy(() -> KraftQuorum.parse(1, "1@a:1,kafka2:9093"))
                .hasMessage("--voters: 'kafka2:9093' is not id@host:port");
        assertThatThrownBy(() -> KraftQuorum.parse(1, "1@a:1,x@b:2"))
                .hasMessage("--voters: 'x@b:2' is not id@host:port (the id is not a number)");
        assertThatThrownBy(() -> KraftQuorum.parse(1, "1@a:1,-2@b:2"))
                .hasMessage("--voters: '-2@b:2' has a negative node id");
        assertThatThrownBy(() -> KraftQuorum.parse(1, "1@a:70000"))
                .hasMessage("--voters: '1@a:70000' is not id@host:port (port 1-65535)");
    }

    @Test
    void aThreeNodeClusterReplicatesKafkasOwnTopicsThreeTimesWithTwoInSync() {
        KraftQuorum q = KraftQuorum.parse(3, "1@127.0.0.1:29093,2@127.0.0.1:29193,3@127.0.0.1:29293");
        Properties p = BrokerSettings.of(q, new KraftQuorum.HostPort("0.0.0.0", 23092),
                new KraftQuorum.HostPort("kafka3", 9092), Path.of("/data/kafka"), new Properties());

        assertThat(p.getProperty("node.id")).isEqualTo("3");
        assertThat(p.getProperty("controller.quorum.voters"))
                .isEqualTo("1@127.0.0.1:29093,2@127.0.0.1:29193,3@127.0.0.1:29293");
        assertThat(p.getProperty("listeners")).isEqualTo("CLIENT://0.0.0.0:23092,CONTROLLER://127.0.0.1:29293");
        assertThat(p.getProperty("advertised.listeners")).isEqualTo("CLIENT://kafka3:9092");
        for (String key : List.of("default.replication.factor", "offsets.topic.replication.factor",
                "transaction.state.log.replication.factor", "share.coordinator.state.topic.replication.factor")) {
            assertThat(p.getProperty(key)).as(key).isEqualTo("3");
        }
        for (String key : List.of("min.insync.replicas", "transaction.state.log.min.isr",
                "share.coordinator.state.topic.min.isr")) {
            assertThat(p.getProperty(key)).as(key).isEqualTo("2");
        }
    }

    @Test
    void twoNodesReplicateTwiceWithOneInSync() {
        Properties p = BrokerSettings.of(KraftQuorum.parse(1, "1@h1:9093,2@h2:9093"),
                new KraftQuorum.HostPort("h1", 9092), new KraftQuorum.HostPort("h1", 9092), Path.of("/d"),
                new Properties());
        assertThat(p.getProperty("offsets.topic.replication.factor")).isEqualTo("2");
        assertThat(p.getProperty("min.insync.replicas")).isEqualTo("1");
    }
}
