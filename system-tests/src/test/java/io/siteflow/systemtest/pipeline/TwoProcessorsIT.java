package io.siteflow.systemtest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.FlowRecord;
import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.synth.SyntheticCluster;
import io.siteflow.processor.topology.SiteflowTopology;
import io.siteflow.processor.topology.TopologyConfig;
import io.siteflow.rules.audit.AuditReport;
import io.siteflow.rules.model.SiteModel;
import io.siteflow.rules.verdict.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.processor.TaskId;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code siteflow process} instances with the same application id (in this JVM, each with its own state
 * directory) share the work: every task runs on exactly one of them, every audited pair's aggregate lives in
 * exactly one of them, and together they give what one instance gives (the offline audit of the records, which
 * {@link ReplayMatchesAuditIT} shows one instance equals): the same window verdicts, each once, and the same
 * cumulative verdicts.
 */
class TwoProcessorsIT {
    private static final int COUNT = 6_000;
    private static final long STEP_MS = 50;
    private static final long CLOSE_AT = SyntheticCluster.T0 + COUNT * STEP_MS + 70_000;
    private static final String APP = "it-two";

    @TempDir
    Path dir;

    @Test
    void twoInstancesProcessEachPartitionOnceAndTogetherEqualOne() throws Exception {
        List<FlowRecord> records = new ArrayList<>(SyntheticCluster.flows(COUNT, STEP_MS, "t"));
        records.addAll(SyntheticCluster.closers(CLOSE_AT, "t"));
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).build()) {
            broker.start();
            String bootstrap = broker.bootstrap();
            Path sites = Files.writeString(dir.resolve("sites.yaml"), SyntheticCluster.SITES);
            try (InProcessProcessor one = InProcessProcessor.start(bootstrap, sites, dir.resolve("state-1"), APP);
                    InProcessProcessor two = InProcessProcessor.start(bootstrap, sites, dir.resolve("state-2"), APP)) {
                Awaitility.await().atMost(Topics.WAIT).until(() -> one.state() == KafkaStreams.State.RUNNING
                        && two.state() == KafkaStreams.State.RUNNING
                        && !tasks(one).isEmpty() && !tasks(two).isEmpty());

                Topics.send(bootstrap, records);
                Awaitility.await().atMost(Topics.WAIT).untilAsserted(() -> assertThat(
                        Topics.committed(bootstrap, APP)).isEqualTo(Topics.flowsEnd(bootstrap)));

                Set<TaskId> first = tasks(one);
                Set<TaskId> second = tasks(two);
                assertThat(first).as("tasks of both").doesNotContainAnyElementsOf(second);
                assertThat(first.size() + second.size()).as("all tasks").isEqualTo(allTasks());

                AuditReport expected = Offline.audit(SyntheticCluster.SITES, records, 60_000);
                List<Verdict> expectedWindows = Offline.closedBefore(expected, CLOSE_AT);
                assertThat(Offline.json(Topics.windowVerdicts(bootstrap, expectedWindows.size())))
                        .containsExactlyElementsOf(Offline.json(expectedWindows));

                SiteModel model = Offline.model(SyntheticCluster.SITES);
                Awaitility.await().atMost(Topics.WAIT).ignoreExceptions().untilAsserted(() -> {
                    List<Verdict> a = one.localCumulativeVerdicts(model, SyntheticCluster.SITES);
                    List<Verdict> b = two.localCumulativeVerdicts(model, SyntheticCluster.SITES);
                    assertThat(a).as("pairs held by both").extracting(Verdict::server)
                            .doesNotContainAnyElementsOf(b.stream().map(Verdict::server).toList());
                    List<Verdict> together = new ArrayList<>(a);
                    together.addAll(b);
                    assertThat(Offline.json(together)).containsExactlyElementsOf(Offline.json(expected.verdicts()));
                });
            }
        }
    }

    /** The active tasks of an instance. */
    private static Set<TaskId> tasks(InProcessProcessor p) {
        Set<TaskId> out = new HashSet<>();
        for (ThreadMetadata t : p.runtime().streams().metadataForLocalThreads()) {
            t.activeTasks().forEach(task -> out.add(task.taskId()));
        }
        return out;
    }

    /** Tasks of the topology: one per subtopology and partition (every siteflow topic has 3 partitions). */
    private static int allTasks() {
        return 3 * SiteflowTopology.build(TopologyConfig.DEFAULTS).describe().subtopologies().size();
    }
}
