package io.siteflow.processor.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.rules.verdict.Outcome;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.VerdictJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real topology on an embedded broker, started the way {@code siteflow process} starts it. */
class ProcessCommandIT {
    private static final String SITES = """
            threshold: 0.90
            minCrossBytes: 1000
            defaults: none
            sites:
              region1: { cidrs: [10.1.0.0/16] }
              region2: { cidrs: [10.2.0.0/16] }
            hosts:
              - { address: 10.1.0.10, name: db1, role: db }
              - { address: 10.2.0.20, name: wls3, role: app-server }
            rules:
              - { name: oracle-ports, category: DB, ports: [1521] }
              - { name: t3, category: CLUSTER, ports: [7001] }
            """;
    private static final long T0 = 1_764_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void turnsRecordsIntoVerdictsAndGarbageIntoDeadLettersOnARealBroker() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).build()) {
            broker.start();
            StringWriter out = new StringWriter();
            Running run = start(broker, out);
            ProcessCommand command = run.command();
            try (KafkaProducer<byte[], byte[]> p = producer(broker.bootstrap())) {
                send(p, record("a-1", T0, 1521, 9_500));
                send(p, record("a-2", T0 + 1_000, 7001, 500));
                send(p, record("a-1", T0, 1521, 9_500));
                p.send(new ProducerRecord<>("siteflow.flows", bytes("10.2.0.20"), bytes("not json"))).get();
                send(p, record("a-3", T0 + 70_000, 1521, 100));
            }

            List<ConsumerRecord<String, String>> verdicts = consume(broker.bootstrap(), "siteflow.verdicts", 1);
            assertThat(verdicts.get(0).key()).isEqualTo("10.2.0.20|region1");
            Verdict v = VerdictJson.parse(verdicts.get(0).value());
            assertThat(v.verdict()).isEqualTo(Outcome.PASS);
            assertThat(v.crossBytes()).isEqualTo(10_000);
            List<ConsumerRecord<String, String>> dlq = consume(broker.bootstrap(), "siteflow.dlq", 1);
            assertThat(dlq.get(0).key()).isEqualTo("10.2.0.20");
            assertThat(dlq.get(0).value()).startsWith("{\"error\":\"not JSON: ");
            ProcessorRuntime rt = command.runtime().orElseThrow();
            Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                    rt.queries().cumulativeVerdicts()).extracting(Verdict::crossBytes).containsExactly(10_100L));
            assertThat(rt.metrics().duplicates()).isEqualTo(1);
            assertThat(rt.registry().scrape()).contains("siteflow_processor_records_in_total 5.0");

            try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(
                    java.util.Map.of("bootstrap.servers", broker.bootstrap()))) {
                var topics = admin.describeTopics(List.of("siteflow.flows", "siteflow.sites",
                        "it-process-by-server-repartition")).allTopicNames().get(30, TimeUnit.SECONDS);
                assertThat(topics.get("siteflow.flows").partitions()).hasSize(5);
                assertThat(topics.get("siteflow.sites").partitions()).hasSize(1);
                assertThat(topics.get("it-process-by-server-repartition").partitions()).hasSize(5);
            }

            command.stop();
            assertThat(run.exit().get(40, TimeUnit.SECONDS)).isEqualTo(0);
            assertThat(out.toString()).startsWith("siteflow process: running as it-process");
        }
    }

    @Test
    void deadLettersARecordDatedHoursAheadAndKeepsRunningThroughARestart() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).build()) {
            broker.start();
            Running first = start(broker, new StringWriter());
            long now = System.currentTimeMillis();
            long ahead = now + 2 * 3_600_000L;
            // a record 2 h ahead (its by-server copy, alerts and verdicts would be dated then: Kafka refuses
            // timestamps more than 1 h ahead of its clock), then records of now that close a window
            try (KafkaProducer<byte[], byte[]> p = producer(broker.bootstrap())) {
                send(p, record("f-1", ahead, 1521, 9_500));
                send(p, record("n-1", now - 120_000, 1521, 9_500));
                send(p, record("n-2", now, 1521, 100));
            }

            List<ConsumerRecord<String, String>> dlq = consume(broker.bootstrap(), "siteflow.dlq", 1);
            assertThat(dlq).hasSize(1);
            assertThat(dlq.get(0).value()).startsWith("{\"error\":\"start " + java.time.Instant.ofEpochMilli(ahead)
                    + " is PT").contains(" ahead of this processor's clock (").contains("; at most PT5M is used): is the "
                    + "agent's clock wrong?\",\"topic\":\"siteflow.flows\",\"partition\":");
            assertThat(consume(broker.bootstrap(), "siteflow.verdicts", 1)).extracting(r -> VerdictJson.parse(
                    r.value()).crossBytes()).containsExactly(9_500L);
            ProcessorRuntime rt = first.command().runtime().orElseThrow();
            assertThat(rt.metrics().ahead()).isEqualTo(1);
            assertThat(rt.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
            first.command().stop();
            assertThat(first.exit().get(40, TimeUnit.SECONDS)).isEqualTo(0);

            // the record is still on the topic: a restarted processor starts and runs (start() asserts RUNNING)
            Running second = start(broker, new StringWriter());
            assertThat(second.command().runtime().orElseThrow().streams().state())
                    .isEqualTo(KafkaStreams.State.RUNNING);
            second.command().stop();
            assertThat(second.exit().get(40, TimeUnit.SECONDS)).isEqualTo(0);
        }
    }

    @Test
    void resumesAfterARestartWithoutRepeatingClosedWindowsOrDuplicates() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).build()) {
            broker.start();
            Running first = start(broker, new StringWriter());
            try (KafkaProducer<byte[], byte[]> p = producer(broker.bootstrap())) {
                send(p, record("a-1", T0, 1521, 9_500));
                send(p, record("a-2", T0 + 70_000, 1521, 100));
            }
            assertThat(consume(broker.bootstrap(), "siteflow.verdicts", 1)).hasSize(1);
            first.command().stop();
            assertThat(first.exit().get(40, TimeUnit.SECONDS)).isEqualTo(0);

            // a clean restart resumes from the stores' offsets: no task taken for corrupted and restored in full
            ch.qos.logback.classic.Logger stateManager = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory
                    .getLogger("org.apache.kafka.streams.processor.internals.ProcessorStateManager");
            ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> logged =
                    new ch.qos.logback.core.read.ListAppender<>();
            logged.start();
            stateManager.addAppender(logged);
            Running second;
            try {
                second = start(broker, new StringWriter());
            } finally {
                stateManager.detachAppender(logged);
            }
            assertThat(logged.list).extracting(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
                    .noneMatch(m -> m.contains("did not find checkpoint offsets"));
            try (KafkaProducer<byte[], byte[]> p = producer(broker.bootstrap())) {
                send(p, record("a-1", T0, 1521, 9_500));
                send(p, record("a-3", T0 + 140_000, 1521, 100));
            }
            List<ConsumerRecord<String, String>> verdicts = consume(broker.bootstrap(), "siteflow.verdicts", 2);
            assertThat(verdicts).extracting(r -> VerdictJson.parse(r.value()).window().orElseThrow().start())
                    .containsExactly(T0, T0 + 60_000);
            ProcessorRuntime rt = second.command().runtime().orElseThrow();
            Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                    rt.queries().cumulativeVerdicts()).extracting(Verdict::crossBytes).containsExactly(9_700L));
            second.command().stop();
            assertThat(second.exit().get(40, TimeUnit.SECONDS)).isEqualTo(0);
        }
    }

    @Test
    void refusesToStartWhenPartitionsWereAddedToTheFlowsTopicAndSaysWhatToDo() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).build()) {
            broker.start();
            Running first = start(broker, new StringWriter());
            first.command().stop();
            assertThat(first.exit().get(40, TimeUnit.SECONDS)).isEqualTo(0);
            try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(
                    Map.of("bootstrap.servers", broker.bootstrap()))) {
                admin.createPartitions(Map.of("siteflow.flows",
                        org.apache.kafka.clients.admin.NewPartitions.increaseTo(7))).all().get(30, TimeUnit.SECONDS);
            }

            assertThat(refusal(broker)).isEqualTo("siteflow process: siteflow.flows has 7 partitions but "
                    + "it-process-by-server-repartition has 5, the count siteflow.flows had when application "
                    + "it-process first ran; the audit state is spread over tasks by that count, and Kafka cannot "
                    + "take partitions away. Run with a new --application-id, which builds its state again from the "
                    + "records siteflow.flows still holds (docs/OPERATIONS.md, \"Sizing\")"
                    + System.lineSeparator());
        }
    }

    @Test
    void refusesToStartOnASiteModelTopicThatRetentionWouldEmpty() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).build()) {
            broker.start();
            try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(
                    Map.of("bootstrap.servers", broker.bootstrap()))) {
                admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic("siteflow.sites", 1,
                        (short) 1))).all().get(30, TimeUnit.SECONDS);
            }

            assertThat(refusal(broker)).isEqualTo("siteflow process: unsafe topics, refusing to start: "
                    + "siteflow.sites: cleanup.policy=delete: retention would delete the site model; it must be "
                    + "compacted (cleanup.policy=compact) (siteflow topics check prints them all; "
                    + "docs/OPERATIONS.md, \"Topic safety\")" + System.lineSeparator());
        }
    }

    /** What {@code siteflow process} prints on standard error when it refuses to start (exit 1, checked). */
    private String refusal(EmbeddedKafkaBroker broker) throws java.io.IOException {
        StringWriter err = new StringWriter();
        var cl = ProcessCommand.commandLine(new ProcessCommand());
        cl.setOut(new PrintWriter(new StringWriter(), true));
        cl.setErr(new PrintWriter(err, true));
        assertThat(cl.execute(args(broker))).as(err.toString()).isEqualTo(1);
        return err.toString();
    }

    record Running(ProcessCommand command, CompletableFuture<Integer> exit) {
    }

    /** Starts {@code siteflow process} on the broker (same state dir and application id every time). */
    private Running start(EmbeddedKafkaBroker broker, StringWriter out) throws Exception {
        String[] args = args(broker);
        ProcessCommand command = new ProcessCommand();
        var cl = ProcessCommand.commandLine(command);
        cl.setOut(new PrintWriter(out, true));
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> cl.execute(args));
        try {
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> exit.isDone() || command.runtime()
                    .map(rt -> rt.streams().state() == KafkaStreams.State.RUNNING).orElse(false));
        } finally {
            if (!exit.isDone() && command.runtime().map(rt -> rt.streams().state() != KafkaStreams.State.RUNNING)
                    .orElse(true)) {
                command.stop();
                exit.get(40, TimeUnit.SECONDS);
            }
        }
        assertThat(exit).isNotDone();
        return new Running(command, exit);
    }

    /** The command line of every run: same sites file, state dir and application id. */
    private String[] args(EmbeddedKafkaBroker broker) throws java.io.IOException {
        Path sites = Files.writeString(dir.resolve("sites.yaml"), SITES);
        return new String[] {"--bootstrap", broker.bootstrap(), "--sites", sites.toString(), "--http-port", "0",
            "--state-dir", dir.resolve("state").toString(), "--application-id", "it-process", "--kafka",
            "commit.interval.ms=100", "--partitions", "5"};
    }

    private static FlowRecord record(String id, long start, int port, long bytes) {
        return FlowRecord.builder().id(id).agent("edge-b").iface("eth0").time(start, start)
                .endpoints(6, "10.2.0.20", 40000, "10.1.0.10", port).forward(bytes, 1, bytes, 0x18).build();
    }

    private static void send(KafkaProducer<byte[], byte[]> p, FlowRecord r) throws Exception {
        p.send(new ProducerRecord<>("siteflow.flows", bytes(r.src()), FlowRecordJson.toBytes(r))).get();
    }

    private static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static List<ConsumerRecord<String, String>> consume(String bootstrap, String topic, int n) {
        Map<String, Object> c = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "it-" + topic + "-" + System.nanoTime(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<String, String>> got = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(got::add);
                return got.size() >= n;
            });
            consumer.poll(Duration.ofMillis(500)).forEach(got::add);
        }
        return got;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
