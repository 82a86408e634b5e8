package io.siteflow.processor.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.model.wire.Heartbeat;
import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.processor.query.AgentStatus;
import io.siteflow.rules.audit.OfflineAudit;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.VerdictJson;
import io.siteflow.rules.verdict.Window;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.Stores;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A processor that meets a cluster it has not seen, on real brokers: its state directory was filled on another
 * cluster, its topics were deleted and recreated, retention passed a global store's position, its global thread
 * died. Two tests, three broker starts.
 */
class ForeignStateIT {
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
              - { address: 10.2.0.21, name: wls4, role: app-server }
            rules:
              - { name: oracle-ports, category: DB, ports: [1521] }
              - { name: t3, category: CLUSTER, ports: [7001] }
            """;
    private static final long T0 = 1_764_000_000_000L;
    private static final String APP = "it-foreign";
    /** The loggers of the processor's side (the embedded broker's own are left out). */
    private static final List<String> PROCESSOR_LOGGERS = List.of("io.siteflow.processor.app",
            "io.siteflow.processor.topology", "io.siteflow.processor.query", "org.apache.kafka.streams",
            "org.apache.kafka.clients");

    @TempDir
    Path dir;
    private final Events events = new Events();
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void captureLogs() {
        events.start();
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).addAppender(events);
    }

    @AfterEach
    void releaseLogs() {
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).detachAppender(events);
        events.stop();
    }

    @Test
    void stateFromAnotherClusterOrFromRecreatedTopicsIsDiscardedOnceAndTheVerdictsAreTheAuditsOfWhatIsThere()
            throws Exception {
        Path state = dir.resolve("state");
        try (EmbeddedKafkaBroker a = EmbeddedKafkaBroker.builder(dir.resolve("kafka-a")).build()) {
            a.start();
            Running run = start(a, state, UnaryOperator.identity());
            List<FlowRecord> onA = records("a", 9_500, 500);
            send(a, onA);
            heartbeats(a, "edge-b", 3);
            awaitVerdicts(run, onA);
            run.stop();
        }
        String clusterA = StateOrigin.read(state.resolve(APP)).orElseThrow().clusterId();

        try (EmbeddedKafkaBroker b = EmbeddedKafkaBroker.builder(dir.resolve("kafka-b")).build()) {
            b.start();
            // cluster B (a fresh data directory), the same state directory
            events.clear();
            Running run = start(b, state, UnaryOperator.identity());
            String clusterB = StateOrigin.read(state.resolve(APP)).map(StateOrigin::clusterId).orElse("?");
            List<FlowRecord> onB = records("b", 20_000, 3_000);
            send(b, onB);
            heartbeats(b, "edge-b", 1);
            awaitVerdicts(run, onB);
            assertThat(health(run)).isEqualTo("200 {\"status\":\"UP\"}");
            assertThat(events.lines(Level.WARN, "discarding")).containsExactly("state in " + state + " was built "
                    + "from cluster " + clusterA + "; this is cluster " + admin(b, x -> x.describeCluster().clusterId()
                    .get(30, TimeUnit.SECONDS)) + ": discarding it and rebuilding from the topics");
            assertThat(clusterB).isNotEqualTo(clusterA);
            assertThat(events.errors()).isEmpty();
            assertThat(run.runtime().restarts()).isZero();
            run.stop();

            // the same cluster, its topics deleted and recreated while the processor was stopped
            String oldFlowsId = StateOrigin.read(state.resolve(APP)).orElseThrow().topicIds().get("siteflow.flows");
            deleteTopics(b);
            events.clear();
            run = start(b, state, UnaryOperator.identity());
            List<FlowRecord> recreated = records("c", 5_000, 5_000);
            send(b, recreated);
            awaitVerdicts(run, recreated);
            assertThat(events.lines(Level.WARN, "discarding")).hasSize(1).first().asString()
                    .startsWith("state in " + state + " was built from topic ")
                    .contains("; that topic was recreated (id ")
                    .endsWith(" now): discarding it and rebuilding from the topics");
            assertThat(StateOrigin.read(state.resolve(APP)).orElseThrow().topicIds().get("siteflow.flows"))
                    .isNotEqualTo(oldFlowsId);
            assertThat(events.errors()).isEmpty();
            run.stop();
        }
    }

    @Test
    void aGlobalStoreBehindItsTopicsStartIsRebuiltAndADeadGlobalThreadIsRestartedWithHealthDownMeanwhile()
            throws Exception {
        Path state = dir.resolve("state");
        AtomicBoolean armed = new AtomicBoolean(true);
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).build()) {
            broker.start();
            admin(broker, x -> x.createTopics(List.of(new NewTopic(POISON, 1, (short) 1))).all()
                    .get(30, TimeUnit.SECONDS));
            Running run = start(broker, state, poisonable(armed));
            heartbeats(broker, "edge-b", 2);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> run.runtime().queries().agents().size() == 1);
            run.stop();

            // retention passes the global store's position while the processor is stopped
            TopicPartition p = heartbeats(broker, "edge-b", 5);
            long end = admin(broker, x -> x.listOffsets(Map.of(p, OffsetSpec.latest())).partitionResult(p)
                    .get(30, TimeUnit.SECONDS).offset());
            admin(broker, x -> x.deleteRecords(Map.of(p, RecordsToDelete.beforeOffset(end - 1))).all()
                    .get(30, TimeUnit.SECONDS));
            events.clear();
            Running second = start(broker, state, poisonable(armed));
            Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(
                    second.runtime().queries().agents()).extracting(AgentStatus::agent, AgentStatus::received)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("edge-b", 5L)));
            assertThat(events.lines(Level.WARN, "global stores")).containsExactly("the global stores in " + state
                    + " had read " + p + " up to offset 2; its records before offset " + (end - 1) + " were deleted "
                    + "since (retention): rebuilding the global stores from their topics");
            assertThat(events.errors()).isEmpty();
            assertThat(second.runtime().restarts()).isZero();
            assertThat(health(second)).isEqualTo("200 {\"status\":\"UP\"}");

            // a global thread that dies: Kafka Streams is restarted, /health is DOWN until it runs again
            long before = second.runtime().restarts();
            List<String> seen = new CopyOnWriteArrayList<>();
            send(broker, POISON, "x", "die");
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() -> {
                String h = health(second);
                seen.add(h);
                return h.startsWith("503 {\"status\":\"DOWN\"");
            });
            assertThat(seen.get(seen.size() - 1)).contains("it failed: ").contains("it: poisoned record");
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() -> {
                String h = health(second);
                seen.add(h);
                return h.equals("200 {\"status\":\"UP\"}");
            });
            // never a 500 on the way: DOWN with the reason while Kafka Streams is failed, restarting, starting
            assertThat(seen).allMatch(h -> h.startsWith("503 {\"status\":\"DOWN\",\"reason\":\"Kafka Streams is ")
                    || h.equals("200 {\"status\":\"UP\"}"), "DOWN or UP");
            assertThat(second.runtime().restarts()).isEqualTo(before + 1);
            assertThat(second.runtime().registry().scrape())
                    .contains("siteflow_processor_streams_restarts_total " + (before + 1) + ".0");
            List<FlowRecord> after = records("d", 9_000, 1_000);
            send(broker, after);
            awaitVerdicts(second, after);
            assertThat(second.exit()).isNotDone();
            second.stop();
        }
    }

    private static final String POISON = "it.poison";

    /** The topology plus a global store over {@link #POISON} whose step fails once on the value "die". */
    private static UnaryOperator<Topology> poisonable(AtomicBoolean armed) {
        return t -> t.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("it-poison"),
                        Serdes.String(), Serdes.String()).withLoggingDisabled(), "it-poison-source",
                Serdes.String().deserializer(), Serdes.String().deserializer(), POISON, "it-poison-step",
                () -> new Processor<String, String, Void, Void>() {
                    @Override
                    public void process(Record<String, String> r) {
                        if ("die".equals(r.value()) && armed.compareAndSet(true, false)) {
                            throw new IllegalStateException("it: poisoned record");
                        }
                    }
                });
    }

    /** Records of two servers towards the database and the cluster port, ids prefixed by {@code run}. */
    private static List<FlowRecord> records(String run, long dbBytes, long t3Bytes) {
        List<FlowRecord> out = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            for (String server : List.of("10.2.0.20", "10.2.0.21")) {
                out.add(record(run + "-" + server + "-" + i, server, T0 + i * 1_000L, 1521, dbBytes + i));
                out.add(record(run + "-" + server + "-t3-" + i, server, T0 + i * 1_000L, 7001, t3Bytes));
            }
        }
        return out;
    }

    private static FlowRecord record(String id, String server, long start, int port, long bytes) {
        return FlowRecord.builder().id(id).agent("edge-b").iface("eth0").time(start, start)
                .endpoints(6, server, 40000, "10.1.0.10", port).forward(bytes, 1, bytes, 0x18).build();
    }

    /** Waits until the processor's cumulative verdicts are the offline audit's of {@code records}, as JSON. */
    private static void awaitVerdicts(Running run, List<FlowRecord> records) throws Exception {
        OfflineAudit offline = new OfflineAudit(SiteModelLoader.parse("sites.yaml", SITES).orThrow(),
                Window.DEFAULT_SIZE_MS);
        records.forEach(offline::accept);
        List<String> expected = offline.report("test", 0, 0).verdicts().stream()
                .sorted(Comparator.comparing(Verdict::server).thenComparing(Verdict::remoteSite))
                .map(VerdictJson::toJson).toList();
        assertThat(expected).hasSize(2);
        Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(run.runtime().queries()
                .cumulativeVerdicts().stream().map(VerdictJson::toJson).toList()).isEqualTo(expected));
    }

    private void send(EmbeddedKafkaBroker broker, List<FlowRecord> records) throws Exception {
        try (KafkaProducer<byte[], byte[]> p = producer(broker)) {
            for (FlowRecord r : records) {
                p.send(new ProducerRecord<>("siteflow.flows", bytes(r.src()), FlowRecordJson.toBytes(r))).get();
            }
        }
    }

    private void send(EmbeddedKafkaBroker broker, String topic, String key, String value) throws Exception {
        try (KafkaProducer<byte[], byte[]> p = producer(broker)) {
            p.send(new ProducerRecord<>(topic, bytes(key), bytes(value))).get();
        }
    }

    /** {@code n} heartbeats of {@code agent} (received 1..n); the partition they went to. */
    private TopicPartition heartbeats(EmbeddedKafkaBroker broker, String agent, int n) throws Exception {
        TopicPartition tp = null;
        try (KafkaProducer<byte[], byte[]> p = producer(broker)) {
            for (int i = 1; i <= n; i++) {
                Heartbeat h = new Heartbeat(agent, "eth0", System.currentTimeMillis(), i, 0, 0, 0, 0, 0, 0);
                var m = p.send(new ProducerRecord<>("siteflow.agents", bytes(agent), h.toJson())).get();
                tp = new TopicPartition(m.topic(), m.partition());
            }
        }
        return tp;
    }

    private static KafkaProducer<byte[], byte[]> producer(EmbeddedKafkaBroker broker) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap()),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Deletes the siteflow topics and the application's internal ones, and waits until they are gone. */
    private static void deleteTopics(EmbeddedKafkaBroker broker) throws Exception {
        admin(broker, x -> {
            Set<String> doomed = x.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(n -> n.startsWith("siteflow.") || n.startsWith(APP + "-")).collect(Collectors.toSet());
            x.deleteTopics(doomed).all().get(30, TimeUnit.SECONDS);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> x.listTopics().names()
                    .get(30, TimeUnit.SECONDS).stream().noneMatch(doomed::contains));
            return null;
        });
    }

    interface AdminCall<T> {
        T call(Admin admin) throws Exception;
    }

    private static <T> T admin(EmbeddedKafkaBroker broker, AdminCall<T> call) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrap()))) {
            return call.call(admin);
        }
    }

    private String health(Running run) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + run.port()
                + "/health")).build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body();
    }

    record Running(ProcessCommand command, CompletableFuture<Integer> exit, int port) {
        ProcessorRuntime runtime() {
            return command.runtime().orElseThrow();
        }

        void stop() throws Exception {
            command.stop();
            assertThat(exit.get(60, TimeUnit.SECONDS)).isEqualTo(0);
        }
    }

    /** {@code siteflow process} with HTTP on a free port, until Kafka Streams runs. */
    private Running start(EmbeddedKafkaBroker broker, Path state, UnaryOperator<Topology> hook) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path sites = Files.writeString(dir.resolve("sites.yaml"), SITES);
        String[] args = {"--bootstrap", broker.bootstrap(), "--sites", sites.toString(), "--http-port",
            String.valueOf(port), "--state-dir", state.toString(), "--application-id", APP, "--kafka",
            "commit.interval.ms=100", "--partitions", "3"};
        ProcessCommand command = new ProcessCommand();
        command.topologyHook = hook;
        var cl = ProcessCommand.commandLine(command);
        cl.setOut(new PrintWriter(new StringWriter(), true));
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> cl.execute(args));
        Awaitility.await().atMost(Duration.ofSeconds(90)).until(() -> exit.isDone() || command.runtime()
                .map(rt -> rt.streams().state() == KafkaStreams.State.RUNNING).orElse(false));
        assertThat(exit).as(err.toString()).isNotDone();
        Running run = new Running(command, exit, port);
        // the origin is recorded once Kafka Streams runs, off its thread
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> StateOrigin.read(state.resolve(APP))
                .map(o -> o.topicIds().containsKey(APP + "-by-server-repartition")).orElse(false));
        return run;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The processor's log events (level, logger, message and causes). */
    private static final class Events extends AppenderBase<ILoggingEvent> {
        private final List<ILoggingEvent> all = new CopyOnWriteArrayList<>();

        @Override
        protected void append(ILoggingEvent e) {
            if (PROCESSOR_LOGGERS.stream().anyMatch(n -> e.getLoggerName().startsWith(n))) {
                all.add(e);
            }
        }

        void clear() {
            all.clear();
        }

        List<String> lines(Level level, String containing) {
            return all.stream().filter(e -> e.getLevel().equals(level))
                    .map(ILoggingEvent::getFormattedMessage).filter(m -> m.contains(containing)).toList();
        }

        List<String> errors() {
            return all.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.ERROR))
                    .map(e -> e.getLoggerName() + ": " + e.getFormattedMessage()).toList();
        }
    }
}
