package io.siteflow.processor.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.model.L7Protocol;
import io.siteflow.model.wire.Heartbeat;
import io.siteflow.model.wire.Topics;
import io.siteflow.processor.topology.Alert;
import io.siteflow.processor.topology.AlertJson;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.isolation.Decision;
import io.siteflow.rules.isolation.IsolationEdge;
import io.siteflow.rules.isolation.IsolationEvaluator;
import io.siteflow.rules.isolation.IsolationInputs;
import io.siteflow.rules.isolation.IsolationInputsBuilder;
import io.siteflow.rules.isolation.IsolationReport;
import io.siteflow.rules.isolation.PairState;
import io.siteflow.rules.isolation.Unverified;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.synth.SyntheticCluster;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The isolation stage on a real broker, through {@code siteflow process}: the synthetic cluster's records (traffic-synth)
 * with a policy and injected violations give {@code StreamsQueries.isolation} exactly the offline accumulation of the
 * same records; a violating edge raises one ISOLATION alert, its repeat and its CLEARED on {@code siteflow.alerts},
 * allowed traffic none; an observer stopped for five minutes (heartbeats five minutes apart by their own times)
 * makes its pairs UNVERIFIED. One broker and one processor (one partition: every edge in one task, so one stream
 * time closes windows and clears alerts) for the three; each reads its own period and edges.
 */
class IsolationStreamIT {
    static final String POLICY = """
            isolation:
              groups:
                soa: { roles: [app-server] }
                db: { roles: [db] }
              deny:
                - { name: no-t3-to-db, from: any, to: db, l7: [t3] }
              allow:
                - { name: app-db, from: soa, to: db, categories: [DB], ports: [1521], l7: [oracle-tns] }
            """;
    static final String SITES = SyntheticCluster.SITES + POLICY;
    static final long T0 = SyntheticCluster.T0;
    /** The equivalence's period: the synthetic records and the injected violations. */
    static final long PERIOD_END = T0 + 600_000;
    /** The alert scenario's start, an hour later. */
    static final long A = T0 + 3_600_000;
    static final String ALERTED = "10.2.0.21|10.1.0.10|1522|6";

    @TempDir
    static Path dir;
    static EmbeddedKafkaBroker broker;
    static ProcessCommand command;
    static CompletableFuture<Integer> exit;

    @BeforeAll
    static void start() throws Exception {
        broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).build();
        broker.start();
        Path sites = Files.writeString(dir.resolve("sites.yaml"), SITES);
        String[] args = {"--bootstrap", broker.bootstrap(), "--sites", sites.toString(), "--http-port", "0",
            "--state-dir", dir.resolve("state").toString(), "--application-id", "it-isolation", "--kafka",
            "commit.interval.ms=100", "--partitions", "1", "--alert-repeat", "5m"};
        command = new ProcessCommand();
        var cl = ProcessCommand.commandLine(command);
        cl.setOut(new PrintWriter(new StringWriter(), true));
        exit = CompletableFuture.supplyAsync(() -> cl.execute(args));
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> exit.isDone() || command.runtime()
                .map(rt -> rt.streams().state() == KafkaStreams.State.RUNNING).orElse(false));
        assertThat(exit).isNotDone();
        try (KafkaProducer<byte[], byte[]> p = producer()) {
            for (FlowRecord r : equivalenceRecords()) {
                send(p, r);
            }
            for (FlowRecord r : alertRecords()) {
                send(p, r);
            }
            heartbeat(p, "wls4", T0 + 1_200_000);
            heartbeat(p, "wls4", T0 + 1_210_000);
            heartbeat(p, "wls4", T0 + 1_510_000); // five minutes without a heartbeat
            heartbeat(p, "wls4", T0 + 1_520_000);
            p.flush();
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (command != null) {
            command.stop();
            assertThat(exit.get(60, TimeUnit.SECONDS)).isEqualTo(0);
        }
        if (broker != null) {
            broker.close();
        }
    }

    /**
     * 600 records of the synthetic cluster (DB allowed; T3 to wls1 across the sites UNLISTED), then injected: T3 on a
     * database port (1522; DENIED), a host the model does not list reaching the database (UNLISTED), SSH to a remote
     * server (UNLISTED); each at least twice, in two windows.
     */
    static List<FlowRecord> equivalenceRecords() {
        List<FlowRecord> out = new ArrayList<>(SyntheticCluster.flows(600, 900, "eq"));
        for (int i = 0; i < 2; i++) {
            long t = T0 + 100_000 + i * 200_000;
            out.add(record("eq-t3db-" + i, "10.2.0.20", 45000 + i, "10.1.0.10", 1522, t, 800, L7Protocol.T3));
            out.add(record("eq-unlisted-" + i, "10.2.0.99", 46000 + i, "10.1.0.10", 1521, t + 1_000, 1_500,
                    L7Protocol.ORACLE_TNS));
            out.add(record("eq-ssh-" + i, "10.2.0.22", 47000 + i, "10.1.0.20", 22, t + 2_000, 300, L7Protocol.UNKNOWN));
        }
        return out;
    }

    /**
     * wls4 → db1:1522 T3 (DENIED): at A, A + 1 min (no alert), A + 5 min (repeated); allowed DB traffic until
     * A + 11 min (5 minutes after the last violating window's end): CLEARED.
     */
    static List<FlowRecord> alertRecords() {
        List<FlowRecord> out = new ArrayList<>();
        long[] violations = {A, A + 60_000, A + 300_000};
        for (int i = 0; i < violations.length; i++) {
            out.add(record("al-v" + i, "10.2.0.21", 48000 + i, "10.1.0.10", 1522, violations[i], 700, L7Protocol.T3));
        }
        for (long t = A + 30_000; t <= A + 660_000; t += 30_000) {
            out.add(record("al-ok-" + t, "10.2.0.21", 49000, "10.1.0.10", 1521, t, 2_000, L7Protocol.ORACLE_TNS));
        }
        return out;
    }

    @Test
    void streamingEqualsTheOfflineAccumulationOfTheSameRecords() throws Exception {
        IsolationEvaluator e = new IsolationEvaluator(new Classifier(SiteModelLoader.parse("sites.yaml", SITES).orThrow()));
        IsolationInputsBuilder offline = IsolationInputsBuilder.forProposal(e); // the topology's parts
        IsolationInputsBuilder check = new IsolationInputsBuilder(e); // siteflow isolation check's entries
        equivalenceRecords().forEach(offline::add);
        equivalenceRecords().forEach(check::add);
        IsolationInputs expected = offline.build(T0, PERIOD_END, List.of());

        Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(
                queries().isolation(T0, PERIOD_END).orElseThrow().edges()).isEqualTo(expected.edges()));
        IsolationInputs streamed = queries().isolation(T0, PERIOD_END).orElseThrow();
        assertThat(io.siteflow.rules.isolation.IsolationReport.of(streamed).violations()).isEqualTo(
                io.siteflow.rules.isolation.IsolationReport.of(check.build(T0, PERIOD_END, List.of())).violations());
        // same edges, decisions, bytes, packets, flows, first/last seen; and the RTT entries
        assertThat(streamed.rtts()).isEqualTo(expected.rtts());
        assertThat(streamed.edges()).extracting(IsolationEdge::key, IsolationEdge::decision, IsolationEdge::rule)
                .contains(org.assertj.core.groups.Tuple.tuple("10.2.0.20|10.1.0.10|1521|6", Decision.ALLOWED, "app-db"),
                        org.assertj.core.groups.Tuple.tuple("10.2.0.20|10.1.0.10|1522|6", Decision.DENIED, "no-t3-to-db"),
                        org.assertj.core.groups.Tuple.tuple("10.2.0.99|10.1.0.10|1521|6", Decision.UNLISTED, ""),
                        org.assertj.core.groups.Tuple.tuple("10.2.0.22|10.1.0.20|22|6", Decision.UNLISTED, ""),
                        org.assertj.core.groups.Tuple.tuple("10.2.0.20|10.1.0.20|7001|6", Decision.UNLISTED, ""));
        long synthBytes = SyntheticCluster.flows(600, 900, "eq").stream().mapToLong(FlowRecord::totalBytes).sum();
        assertThat(streamed.edges().stream().mapToLong(IsolationEdge::bytes).sum()).isEqualTo(synthBytes
                + 2 * (1_200 + 2_250 + 450)); // both directions: half as much back
        assertThat(streamed.unverified()).isEmpty();
    }

    @Test
    void aViolatingEdgeRaisesOneAlertItsRepeatAndItsClearedAndAllowedTrafficNone() {
        // every alert written until the alerted edge's CLEARED, the last thing its records cause
        List<Alert> all = consume(Topics.ALERTS, got -> got.stream().anyMatch(a -> a.key().equals(ALERTED)
                && a.type().equals("CLEARED")));
        String raised = "isolation: 10.2.0.21 (region2: soa) -> 10.1.0.10:1522/6 (region1: db), UNKNOWN t3: denied by "
                + "no-t3-to-db";
        assertThat(all).filteredOn(a -> a.key().equals(ALERTED)).containsExactly(new Alert("ISOLATION", ALERTED, A, raised),
                new Alert("ISOLATION", ALERTED, A + 300_000, raised + " (repeated: still so since the alert of "
                        + Instant.ofEpochMilli(A) + ")"),
                new Alert("CLEARED", ALERTED, A + 660_000, "isolation: no violating traffic on " + ALERTED + " since "
                        + Instant.ofEpochMilli(A + 360_000) + " (PT5M quiet)"));
        List<String> allowed = queries().isolation(T0, A + 720_000).orElseThrow().edges().stream()
                .filter(x -> x.decision() == Decision.ALLOWED).map(IsolationEdge::key).toList();
        assertThat(allowed).contains("10.2.0.21|10.1.0.10|1521|6", "10.2.0.20|10.1.0.10|1521|6");
        assertThat(all).extracting(Alert::key).doesNotContainAnyElementsOf(allowed);
        // the injected violations raised theirs
        assertThat(all).filteredOn(a -> a.type().equals("ISOLATION")).extracting(Alert::key).contains(
                "10.2.0.20|10.1.0.10|1522|6", "10.2.0.99|10.1.0.10|1521|6", "10.2.0.22|10.1.0.20|22|6");
    }

    @Test
    void anObserverStoppedForFiveMinutesMakesItsPairsUnverified() {
        long from = T0 + 1_200_000;
        long to = T0 + 1_800_000;
        Unverified silent = new Unverified("wls4", Optional.of("10.2.0.21"), "silent from "
                + Instant.ofEpochMilli(T0 + 1_210_000) + " to " + Instant.ofEpochMilli(T0 + 1_510_000) + "; silent since "
                + Instant.ofEpochMilli(T0 + 1_520_000));
        Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(
                queries().isolation(from, to).orElseThrow().unverified()).containsExactly(silent));
        // in the report, every pair of wls4's groups is UNVERIFIED, never ISOLATED
        IsolationReport report = IsolationReport.of(queries().isolation(from, to).orElseThrow());
        assertThat(report.pairs()).filteredOn(p -> p.from().equals("soa") && p.to().equals("db"))
                .extracting(PairState::state).containsExactly(PairState.State.UNVERIFIED);
        // before the silence the observer is trusted
        assertThat(queries().isolation(T0, PERIOD_END).orElseThrow().unverified()).isEmpty();
    }

    static io.siteflow.processor.query.SiteflowQueries queries() {
        return command.runtime().orElseThrow().queries();
    }

    static FlowRecord record(String id, String src, int srcPort, String dst, int dstPort, long start, long bytes,
                             L7Protocol l7) {
        return FlowRecord.builder().id(id).agent(SyntheticCluster.AGENT).iface("eth0").time(start, start + 100)
                .endpoints(6, src, srcPort, dst, dstPort).forward(bytes, 2, bytes + 28, 0x1b).reverse(bytes / 2, 2,
                        bytes / 2 + 28, 0x1b).l7(l7).isFinal(true).build();
    }

    static void send(KafkaProducer<byte[], byte[]> p, FlowRecord r) throws Exception {
        p.send(new ProducerRecord<>(Topics.FLOWS, r.src().getBytes(StandardCharsets.UTF_8), FlowRecordJson.toBytes(r)))
                .get();
    }

    static void heartbeat(KafkaProducer<byte[], byte[]> p, String agent, long time) throws Exception {
        p.send(new ProducerRecord<>(Topics.AGENTS, agent.getBytes(StandardCharsets.UTF_8),
                new Heartbeat(agent, "ens3", time, 100_000, 0, 0, 0, 0, 0, 0).toJson())).get();
    }

    static KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap()),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** The alerts on the topic (read committed), once {@code done} says the list read so far is complete. */
    static List<Alert> consume(String topic, java.util.function.Predicate<List<Alert>> done) {
        Map<String, Object> c = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap(),
                ConsumerConfig.GROUP_ID_CONFIG, "it-" + System.nanoTime(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest", ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<Alert> got = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    got.add(AlertJson.parse(r.value()));
                }
                return done.test(got);
            });
        }
        return got;
    }
}
