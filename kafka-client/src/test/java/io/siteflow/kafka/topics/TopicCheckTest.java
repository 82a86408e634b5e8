package io.siteflow.kafka.topics;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.kafka.topics.TopicCheck.Facts;
import io.siteflow.kafka.topics.TopicCheck.Status;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicCheckTest {
    private static final List<String> NAMES = SiteflowTopics.SINGLE_NODE.names();

    /** The topics as siteflow creates them on {@code brokers} brokers. */
    private static Map<String, Facts> asCreated(int brokers) {
        Map<String, Facts> facts = new HashMap<>();
        for (SiteflowTopics.Topic t : SiteflowTopics.forBrokers(3, brokers).topics()) {
            facts.put(t.name(), new Facts(t.partitions(), t.replicationFactor(), t.configs()));
        }
        return facts;
    }

    private static TopicCheck.Row row(TopicCheck check, String topic) {
        return check.rows().stream().filter(r -> r.topic().equals(topic)).findFirst().orElseThrow();
    }

    @Test
    void topicsAsSiteflowCreatesThemAreSafeOnOneAndOnThreeBrokers() {
        for (int brokers : new int[] {1, 3}) {
            TopicCheck check = TopicCheck.of(brokers, NAMES, asCreated(brokers));
            assertThat(check.rows()).extracting(TopicCheck.Row::status).as("%d brokers", brokers)
                    .containsOnly(Status.OK);
            assertThat(check.safe()).isTrue();
        }
    }

    @Test
    void aSiteModelTopicThatIsNotCompactedIsUnsafe() {
        Map<String, Facts> facts = asCreated(1);
        facts.put("siteflow.sites", new Facts(1, 1, Map.of("cleanup.policy", "delete")));

        TopicCheck check = TopicCheck.of(1, NAMES, facts);

        assertThat(row(check, "siteflow.sites").status()).isEqualTo(Status.UNSAFE);
        assertThat(row(check, "siteflow.sites").findings()).containsExactly("cleanup.policy=delete: retention "
                + "would delete the site model; it must be compacted (cleanup.policy=compact)");
        assertThat(check.safe()).isFalse();
    }

    @Test
    void flowsWithCreateTimeAndAFiniteRetentionAreUnsafeButNotWithRetentionForever() {
        Map<String, Facts> facts = asCreated(1);
        facts.put("siteflow.flows", new Facts(3, 1, Map.of("message.timestamp.type", "CreateTime",
                "retention.ms", "604800000")));
        assertThat(row(TopicCheck.of(1, NAMES, facts), "siteflow.flows").findings()).containsExactly(
                "message.timestamp.type=CreateTime with retention.ms=604800000 (7 d): records of a replayed capture "
                        + "older than that are deleted as they arrive; use message.timestamp.type=LogAppendTime");

        facts.put("siteflow.flows", new Facts(3, 1, Map.of("message.timestamp.type", "CreateTime",
                "retention.ms", "-1")));
        assertThat(row(TopicCheck.of(1, NAMES, facts), "siteflow.flows").status()).isEqualTo(Status.OK);
    }

    @Test
    void minInsyncReplicasAboveTheReplicationFactorIsUnsafe() {
        Map<String, Facts> facts = asCreated(1);
        facts.put("siteflow.verdicts", new Facts(3, 1, Map.of("min.insync.replicas", "2")));

        TopicCheck.Row r = row(TopicCheck.of(1, NAMES, facts), "siteflow.verdicts");

        assertThat(r.status()).isEqualTo(Status.UNSAFE);
        assertThat(r.findings()).containsExactly("min.insync.replicas=2 > replication factor 1: every acks=all "
                + "write fails");
    }

    @Test
    void replicationOneOnAClusterIsAWarning() {
        Map<String, Facts> facts = asCreated(3);
        facts.put("siteflow.dlq", new Facts(3, 1, Map.of()));

        TopicCheck check = TopicCheck.of(3, NAMES, facts);

        assertThat(row(check, "siteflow.dlq").status()).isEqualTo(Status.WARN);
        assertThat(row(check, "siteflow.dlq").findings()).containsExactly("replication factor 1 on a 3-broker "
                + "cluster: losing one broker loses this topic's records");
        assertThat(check.safe()).isTrue();
    }

    @Test
    void replicationThreeWithOneInSyncIsAWarning() {
        Map<String, Facts> facts = asCreated(3);
        facts.put("siteflow.alerts", new Facts(3, 3, Map.of("min.insync.replicas", "1")));

        assertThat(row(TopicCheck.of(3, NAMES, facts), "siteflow.alerts").findings()).containsExactly(
                "min.insync.replicas=1 with replication factor 3: an acknowledged record may be on one broker only");
    }

    @Test
    void theTableHasARowPerTopicAndFindingAndASummary() {
        Map<String, Facts> facts = asCreated(1);
        facts.remove("siteflow.dlq");
        facts.put("siteflow.sites", new Facts(1, 1, Map.of("cleanup.policy", "delete", "min.insync.replicas", "2")));

        String table = TopicCheck.of(1, NAMES, facts).table("127.0.0.1:9092");

        assertThat(table).isEqualTo("""
                siteflow topics on 127.0.0.1:9092 (1 broker):
                TOPIC              PARTITIONS REPLICAS  MIN.ISR  STATUS  FINDING
                siteflow.flows              3        1        1  ok
                siteflow.agents             3        1        1  ok
                siteflow.sites              1        1        2  unsafe  cleanup.policy=delete: retention would \
                delete the site model; it must be compacted (cleanup.policy=compact)
                                                                         min.insync.replicas=2 > replication factor \
                1: every acks=all write fails
                siteflow.verdicts           3        1        1  ok
                siteflow.alerts             3        1        1  ok
                siteflow.isolation          3        1        1  ok
                siteflow.dlq                -        -        -  missing does not exist; siteflow process or broker \
                creates it
                1 unsafe, 0 warnings, 1 missing: siteflow process refuses to start until the unsafe topics are fixed
                """);
    }

    @Test
    void anIsolationTopicNotCompactedWarnsAndOneDatedByCreateTimeIsUnsafe() {
        Map<String, Facts> facts = asCreated(1);
        facts.put("siteflow.isolation", new Facts(3, 1, Map.of("message.timestamp.type", "LogAppendTime")));

        TopicCheck.Row r = row(TopicCheck.of(1, NAMES, facts), "siteflow.isolation");
        assertThat(r.status()).isEqualTo(Status.WARN);
        assertThat(r.findings()).containsExactly("cleanup.policy=delete: every update of an edge's window is kept, "
                + "not only its newest value; compact it (cleanup.policy=compact,delete)");

        facts.put("siteflow.isolation", new Facts(3, 1, Map.of("cleanup.policy", "compact,delete",
                "retention.ms", "2592000000")));
        TopicCheck.Row created = row(TopicCheck.of(1, NAMES, facts), "siteflow.isolation");
        assertThat(created.status()).isEqualTo(Status.UNSAFE);
        assertThat(created.findings()).containsExactly("message.timestamp.type=CreateTime with retention.ms=2592000000 "
                + "(30 d): records of a replayed capture older than that are deleted as they arrive; use "
                + "message.timestamp.type=LogAppendTime");
    }

    @Test
    void durationsReadAsTheLargestWholeUnit() {
        assertThat(TopicCheck.human(604_800_000L)).isEqualTo("7 d");
        assertThat(TopicCheck.human(129_600_000L)).isEqualTo("36 h");
        assertThat(TopicCheck.human(5_400_000L)).isEqualTo("90 min");
        assertThat(TopicCheck.human(1_500L)).isEqualTo("1500 ms");
        assertThat(TopicCheck.human(0L)).isEqualTo("0 ms");
    }
}
