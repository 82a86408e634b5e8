package io.siteflow.systemtest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.FlowRecord;
import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.synth.SyntheticCluster;
import io.siteflow.rules.audit.AuditReport;
import io.siteflow.rules.verdict.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code siteflow process} in a child JVM, killed with SIGKILL while records stream in, then restarted on the
 * same state directory: with {@code exactly_once_v2} nothing is lost and nothing counted twice. Checked on
 * both outputs: the window verdicts on {@code siteflow.verdicts} (read committed: each window once, equal to the
 * offline audit of the records) and the cumulative aggregates in the changelogged stores (restored by a third
 * instance with an empty state directory after the child stopped cleanly).
 */
class ProcessorKillIT {
    private static final int COUNT = 12_000;
    private static final int RATE = 600;
    private static final long STEP_MS = 50;
    private static final long CLOSE_AT = SyntheticCluster.T0 + COUNT * STEP_MS + 70_000;
    private static final String APP = "it-kill";
    /** Sent before the paced stream, to see the first instance running. */
    private static final int WARM_UP = 500;

    @TempDir
    Path dir;

    @Test
    void killedProcessorRestartsWithExactTotals() throws Exception {
        List<FlowRecord> records = new ArrayList<>(SyntheticCluster.flows(COUNT, STEP_MS, "k"));
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).build()) {
            broker.start();
            String bootstrap = broker.bootstrap();
            Path sites = Files.writeString(dir.resolve("sites.yaml"), SyntheticCluster.SITES);
            Path state = dir.resolve("state");
            Path log = ChildProcessor.logFile("ProcessorKillIT");
            try (ChildProcessor first = ChildProcessor.start(bootstrap, sites, state, APP, log)) {
                Topics.send(bootstrap, records.subList(0, WARM_UP));
                Awaitility.await().atMost(Topics.WAIT).until(() -> {
                    assertThat(first.alive()).as(first::tail).isTrue();
                    return Topics.committed(bootstrap, APP) >= WARM_UP;
                });
                try (PacedProducer producer = PacedProducer.start(bootstrap, records.subList(WARM_UP, COUNT), RATE)) {
                    Awaitility.await().atMost(Topics.WAIT).until(() -> Topics.committed(bootstrap, APP) > WARM_UP);
                    first.kill();
                    long committedAtKill = Topics.committed(bootstrap, APP);
                    int sentAtKill = WARM_UP + producer.sent();
                    assertThat(committedAtKill).as("killed mid-stream").isLessThan(COUNT);
                    assertThat(sentAtKill).as("records still coming").isLessThan(COUNT);

                    try (ChildProcessor second = ChildProcessor.start(bootstrap, sites, state, APP, log)) {
                        Awaitility.await().atMost(Topics.WAIT).until(producer::done);
                        List<FlowRecord> closers = SyntheticCluster.closers(CLOSE_AT, "k");
                        Topics.send(bootstrap, closers);
                        records.addAll(closers);
                        Awaitility.await().atMost(Topics.WAIT).untilAsserted(() -> {
                            assertThat(second.alive()).as(second::tail).isTrue();
                            assertThat(Topics.committed(bootstrap, APP)).as("committed")
                                    .isEqualTo(Topics.flowsEnd(bootstrap));
                        });
                        AuditReport expected = Offline.audit(SyntheticCluster.SITES, records, 60_000);
                        List<Verdict> expectedWindows = Offline.closedBefore(expected, CLOSE_AT);
                        List<Verdict> windows = Topics.windowVerdicts(bootstrap, expectedWindows.size());
                        assertThat(Offline.json(windows)).containsExactlyElementsOf(Offline.json(expectedWindows));
                        assertThat(second.stop()).as(second::tail).isZero();

                        try (InProcessProcessor restored = InProcessProcessor.start(bootstrap, sites,
                                dir.resolve("restored-state"), APP)) {
                            Awaitility.await().atMost(Topics.WAIT).ignoreExceptions().untilAsserted(() -> assertThat(
                                    Offline.json(restored.cumulativeVerdicts()))
                                    .containsExactlyElementsOf(Offline.json(expected.verdicts())));
                        }
                    }
                }
            }
        }
    }
}
