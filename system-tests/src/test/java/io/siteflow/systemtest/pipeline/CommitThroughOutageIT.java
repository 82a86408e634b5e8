package io.siteflow.systemtest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.audit.AuditReport;
import io.siteflow.synth.SyntheticCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records flowing (250/s) while the only broker stops for 12 s and comes back, the processor committing every 3 s so
 * that the outage finds records processed but not yet committed: every record counts exactly once in the cumulative
 * verdicts. The processor's Streams producer waits for the broker ({@code ProcessorSettings.PRODUCER_MAX_BLOCK_MS}),
 * so the commit completes after the outage. With {@code --kafka producer.max.block.ms=5000} (a commit that times out
 * during the outage: Kafka Streams closes the task dirty and revives it) this test failed 2 of 6 runs here, the
 * processor missing whole records it had read (records in 3,000 of 3,000, duplicates 0, one server short by
 * 269,824 bytes); with the default it passed 6 of 6.
 */
class CommitThroughOutageIT {
    private static final int RECORDS = 3_000;
    private static final Duration OUTAGE = Duration.ofSeconds(12);

    @TempDir
    Path dir;

    @Test
    void everyRecordCountsOnceWhenTheBrokerStopsBetweenProcessingAndCommit() throws Exception {
        List<FlowRecord> all = SyntheticCluster.flows(RECORDS, 50, "o");
        try (OutageBroker broker = OutageBroker.start(dir.resolve("kafka"))) {
            String bootstrap = broker.bootstrap();
            Path sites = Files.writeString(dir.resolve("sites.yaml"), SyntheticCluster.SITES);
            try (InProcessProcessor p = InProcessProcessor.start(bootstrap, sites, dir.resolve("state"), "it-commit",
                    "--kafka", "commit.interval.ms=3000")) {
                Awaitility.await().atMost(Topics.WAIT).until(() -> p.state() == KafkaStreams.State.RUNNING);
                try (PacedProducer producer = PacedProducer.start(bootstrap, all, 250)) {
                    Awaitility.await().atMost(Topics.WAIT).until(() -> p.runtime().metrics().recordsIn() >= 800);
                    broker.outage(OUTAGE);
                    Awaitility.await().atMost(Topics.WAIT).until(producer::done);
                }
                AuditReport expected = Offline.audit(SyntheticCluster.SITES, all, 60_000);
                Awaitility.await().atMost(Topics.WAIT).ignoreExceptions().untilAsserted(() -> assertThat(
                        Offline.json(p.cumulativeVerdicts())).as(() -> "records in " + p.runtime().metrics().recordsIn()
                        + ", duplicates " + p.runtime().metrics().duplicates())
                        .containsExactlyElementsOf(Offline.json(expected.verdicts())));
            }
        }
    }
}
