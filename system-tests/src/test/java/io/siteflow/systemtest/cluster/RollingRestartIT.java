package io.siteflow.systemtest.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.systemtest.pipeline.InProcessProcessor;
import io.siteflow.systemtest.pipeline.Offline;
import io.siteflow.systemtest.pipeline.PacedProducer;
import io.siteflow.model.FlowRecord;
import io.siteflow.processor.app.ProcessorRuntime;
import io.siteflow.broker.LogCapture;
import io.siteflow.synth.SyntheticCluster;
import io.siteflow.rules.audit.AuditReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rolling restart of a three-broker cluster (child JVMs, KRaft, the siteflow topics at replication factor 3 and
 * {@code min.insync.replicas=2}) while records flow: a paced producer stands for the agents, and each node in turn
 * gets SIGTERM (by PID), exits 0 after its controlled shutdown, starts again on its data directory, and the next
 * one waits until every partition has all its replicas in sync. {@code siteflow process} runs in this JVM all
 * along: its cumulative verdicts equal the offline audit of exactly the records sent, and it never restarted, as
 * its Kafka Streams client's own log of state transitions shows: only CREATED, REBALANCING and RUNNING, never
 * ERROR, PENDING_ERROR, PENDING_SHUTDOWN or NOT_RUNNING, and the same runtime from start to end.
 */
class RollingRestartIT {
    private static final String APP = "it-rolling";
    /** More than the run sends at {@link #RATE}: the producer is stopped once every node has been restarted. */
    private static final int COUNT = 200_000;
    private static final int RATE = 400;
    private static final long STEP_MS = 5;
    private static final Pattern TRANSITION = Pattern.compile("State transition from (\\w+) to (\\w+)");
    private static final List<String> ALLOWED = List.of("CREATED->REBALANCING", "REBALANCING->RUNNING",
            "RUNNING->REBALANCING");

    @TempDir
    Path dir;

    private ThreeBrokers brokers;

    @AfterEach
    void stopBrokers() throws InterruptedException {
        if (brokers != null) {
            brokers.close();
        }
    }

    @Test
    void processorCountsExactlyAndNeverRestartsWhileEveryBrokerIsRestartedInTurn() throws Exception {
        brokers = ThreeBrokers.start(dir, "rolling-restart", List.of(), List.of());
        List<FlowRecord> records = SyntheticCluster.flows(COUNT, STEP_MS, "r");
        Path sites = Files.writeString(dir.resolve("sites.yaml"), SyntheticCluster.SITES);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, brokers.bootstrap()));
                LogCapture logs = LogCapture.of("org.apache.kafka.streams.KafkaStreams", "io.siteflow")) {
            brokers.awaitSafeTopics(admin);
            int sent;
            try (InProcessProcessor processor = InProcessProcessor.start(brokers.bootstrap(), sites,
                    dir.resolve("state"), APP)) {
                ProcessorRuntime runtime = processor.runtime();
                try (PacedProducer producer = PacedProducer.start(brokers.bootstrap(), records, RATE)) {
                    awaitMore(producer, 0);
                    for (int id = 1; id <= 3; id++) {
                        int before = producer.sent();
                        assertThat(brokers.stop(id)).as("node %d exit code: %s", id, brokers.node(id).tail())
                                .isZero();
                        brokers.restart(id);
                        ThreeBrokers.awaitFullIsr(admin, Duration.ofMinutes(2));
                        awaitMore(producer, before);
                    }
                    awaitMore(producer, producer.sent());
                    producer.close(); // stops sending and waits for the acks of all that were sent
                    assertThat(producer.done()).as("every record sent was acknowledged").isTrue();
                    sent = producer.sent();
                }
                assertThat(sent).as("records sent").isLessThan(COUNT);
                AuditReport expected = Offline.audit(SyntheticCluster.SITES, records.subList(0, sent), 60_000);
                Awaitility.await("cumulative verdicts of all " + sent + " records").atMost(Duration.ofMinutes(2))
                        .ignoreExceptions().untilAsserted(() -> assertThat(Offline.json(processor.cumulativeVerdicts()))
                                .containsExactlyElementsOf(Offline.json(expected.verdicts())));
                assertThat(processor.runtime()).as("the same runtime").isSameAs(runtime);
                assertThat(processor.state()).isEqualTo(KafkaStreams.State.RUNNING);
                List<String> lines = logs.lines(); // before the test stops the processor
                assertThat(transitions(lines)).as("Kafka Streams state transitions")
                        .contains("REBALANCING->RUNNING").allMatch(ALLOWED::contains);
                assertThat(lines).noneMatch(l -> l.contains("stream thread failed; stopping"));
            }
        }
    }

    /** Waits until the producer has handed over more than {@code than} records (with 2 minutes for a slow node). */
    private static void awaitMore(PacedProducer producer, int than) {
        Awaitility.await("records beyond " + than).atMost(Duration.ofMinutes(2)).until(() -> {
            producer.done(); // throws once a record was not written
            return producer.sent() > than + RATE;
        });
    }

    /** {@code FROM->TO} of each state transition the Streams client logged, in order. */
    private static List<String> transitions(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String l : lines) {
            Matcher m = TRANSITION.matcher(l);
            if (l.startsWith("stream-client") && m.find()) {
                out.add(m.group(1) + "->" + m.group(2));
            }
        }
        return out;
    }
}
