package io.siteflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.publish.kafka.KafkaFlowSink;
import io.siteflow.agent.publish.kafka.KafkaSinkConfig;
import io.siteflow.agent.publish.kafka.PublishStats;
import io.siteflow.model.Cidr;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.L7Protocol;
import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.kafka.topics.SiteflowTopics;
import io.siteflow.kafka.topics.TopicAdmin;
import io.siteflow.model.wire.FlowKeys;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's Kafka publisher against a real embedded broker: order and keys, an outage of the
 * broker (length from system property {@code siteflow.it.outageSeconds}, default 6 s), and the
 * spool limit.
 */
class KafkaFlowSinkIT {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Duration OUTAGE = Duration.ofSeconds(Long.getLong("siteflow.it.outageSeconds", 6));
    private static final List<String> SERVERS = List.of("10.2.0.20", "10.2.0.21", "10.2.0.22");
    /** Short timeouts so an outage reaches the spool within seconds. */
    private static final Map<String, String> FAST_FAILURE = Map.of("delivery.timeout.ms", "3000",
            "request.timeout.ms", "1000", "max.block.ms", "500");

    @TempDir
    Path tmp;

    private final List<AutoCloseable> open = new ArrayList<>();
    private final List<EmbeddedKafkaBroker> brokers = new ArrayList<>();

    /** Capture and sinks first, brokers last. */
    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        brokers.forEach(EmbeddedKafkaBroker::close);
    }

    private EmbeddedKafkaBroker broker(int port, int controllerPort) {
        EmbeddedKafkaBroker b = EmbeddedKafkaBroker.builder(tmp.resolve("kafka")).port(port)
                .controllerPort(controllerPort).build();
        brokers.add(b);
        b.start();
        TopicAdmin.ensureTopics(b.bootstrap(), SiteflowTopics.SINGLE_NODE);
        return b;
    }

    private KafkaFlowSink sink(KafkaSinkConfig.Builder config) {
        KafkaFlowSink s = KafkaFlowSink.start(config.keyFunction(FlowKeys.localServer(List.of(Cidr.parse("10.1.0.0/16"))))
                .retryInterval(Duration.ofMillis(200)).build());
        open.add(s);
        return s;
    }

    /** Record n: from server n % 3 to the database in the remote site; ids 100000.. have equal lengths. */
    private static FlowRecord flow(int n) {
        return FlowRecord.builder().id("run-" + (100_000 + n)).agent("agent-it").iface("eth0")
                .time(1_764_000_000_000L, 1_764_000_000_100L).endpoints(6, SERVERS.get(n % 3), 40000, "10.1.0.10", 1521)
                .forward(1000, 10, 1140, 0x1b).reverse(2000, 12, 2168, 0x1b).rttMicros(6500L)
                .l7(L7Protocol.ORACLE_TNS).build();
    }

    @Test
    void deliversRecordsInOrderWithTheLocalServerAsKey() {
        EmbeddedKafkaBroker broker = broker(0, 0);
        KafkaFlowSink sink = sink(KafkaSinkConfig.builder(broker.bootstrap(), tmp.resolve("spool")));
        IntStream.range(0, 300).forEach(n -> sink.accept(flow(n)));
        sink.flush();

        List<FlowTopic.Received> got = FlowTopic.readAll(broker.bootstrap(), 300, WAIT);
        assertThat(got).hasSize(300);
        assertInOrderPerServer(got, 300);
        assertThat(sink.stats()).isEqualTo(new PublishStats(300, 300, 0, 0, 0, 0, 0, 0, 0, false));
    }

    @Test
    void losesNothingWhileTheBrokerIsDownAndReplaysInOrder() {
        EmbeddedKafkaBroker first = broker(0, 0);
        int port = first.port();
        int controllerPort = first.controllerPort();
        KafkaFlowSink sink = sink(KafkaSinkConfig.builder(first.bootstrap(), tmp.resolve("spool"))
                .clientProperties(FAST_FAILURE));
        // a first record acknowledged alone: the fast-failure timeouts must not expire on a broker still warming up
        sink.accept(flow(0));
        Awaitility.await().atMost(WAIT).until(() -> sink.stats().sent() == 1);
        AtomicInteger next = new AtomicInteger(1);
        ScheduledExecutorService capture = Executors.newSingleThreadScheduledExecutor();
        open.add(capture::shutdownNow);
        capture.scheduleAtFixedRate(() -> sink.accept(flow(next.getAndIncrement())), 0, 2, TimeUnit.MILLISECONDS);

        Awaitility.await().atMost(WAIT).until(() -> sink.stats().sent() >= 200);
        first.close();
        long down = System.nanoTime();
        Awaitility.await().atMost(WAIT.plus(OUTAGE)).until(() -> sink.stats().spooled() > 0
                && System.nanoTime() - down >= OUTAGE.toNanos());
        broker(port, controllerPort);
        Awaitility.await().atMost(WAIT).until(() -> !sink.stats().outage() && sink.stats().sent() > next.get() / 2);
        capture.shutdown();
        Awaitility.await().atMost(WAIT).until(capture::isTerminated);
        sink.flush();

        int total = next.get();
        PublishStats s = sink.stats();
        assertThat(s.accepted()).isEqualTo(total);
        assertThat(s.sent()).isEqualTo(total);
        assertThat(s.spooled()).isPositive().isEqualTo(s.replayed());
        assertThat(s.dropped()).isZero();
        assertThat(s.spoolRecords()).isZero();
        List<FlowTopic.Received> got = FlowTopic.readAll(first.bootstrap(), total, WAIT);
        assertInOrderPerServer(got, total);
    }

    @Test
    void dropsTheNewestRecordsOnceTheSpoolIsFullAndDeliversTheRestLater() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort(); // nothing listens here until the broker starts
        }
        int frame = 8 + 4 + "10.2.0.20".length() + io.siteflow.model.FlowRecordJson.toBytes(flow(0)).length;
        long limit = 8 + 50L * frame;
        KafkaFlowSink sink = sink(KafkaSinkConfig.builder("127.0.0.1:" + port, tmp.resolve("spool"))
                .clientProperties(FAST_FAILURE).spoolMaxBytes(limit).spoolSegmentBytes(limit));
        IntStream.range(0, 80).forEach(n -> sink.accept(flow(n)));
        Awaitility.await().atMost(WAIT).until(() -> sink.stats().spooled() + sink.stats().dropped() == 80);
        assertThat(sink.stats().spooled()).isEqualTo(50);
        assertThat(sink.stats().dropped()).isEqualTo(30);

        EmbeddedKafkaBroker broker = broker(port, 0);
        Awaitility.await().atMost(WAIT).until(() -> !sink.stats().outage());
        List<FlowTopic.Received> got = FlowTopic.readAll(broker.bootstrap(), 50, WAIT);
        assertInOrderPerServer(got, 50);
        assertThat(sink.stats().replayed()).isEqualTo(50);
    }

    /**
     * Issue 17 defect 2: the spool's disk is full (a 256 KiB tmpfs this test mounts, as root) when the broker comes
     * back. The spool must drain without free space (it used to send one probe, fail to write spool.pos and stay in
     * the outage, dropping every new record), every replayed record must be counted as sent, and new records must
     * then go straight to Kafka.
     */
    @Test
    void drainsASpoolOnAFullDiskOnceTheBrokerIsBack() throws Exception {
        Path disk = java.nio.file.Files.createDirectory(tmp.resolve("small-disk"));
        run("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", disk.toString());
        open.add(0, () -> run("umount", disk.toString())); // after the sink is closed
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        KafkaFlowSink sink = sink(KafkaSinkConfig.builder("127.0.0.1:" + port, disk.resolve("spool"))
                .clientProperties(FAST_FAILURE).spoolMaxBytes(64L << 20).spoolSegmentBytes(32 << 10));
        AtomicInteger next = new AtomicInteger();
        Awaitility.await().atMost(WAIT).until(() -> {
            IntStream.range(0, 50).forEach(n -> sink.accept(flow(next.getAndIncrement())));
            return sink.stats().dropped() > 0 && sink.stats().queued() == 0; // the disk is full
        });
        long spooled = sink.stats().spooled();
        long dropped = sink.stats().dropped();
        assertThat(spooled + dropped).isEqualTo(next.get());

        EmbeddedKafkaBroker broker = broker(port, 0);
        Awaitility.await().atMost(WAIT).until(() -> !sink.stats().outage());
        IntStream.range(0, 100).forEach(n -> sink.accept(flow(next.getAndIncrement())));
        sink.flush();

        PublishStats s = sink.stats();
        assertThat(s.replayed()).isEqualTo(spooled);
        assertThat(s.sent()).isEqualTo(spooled + 100);
        assertThat(s.dropped()).isEqualTo(dropped);
        assertThat(s.spoolRecords()).isZero();
        assertThat(FlowTopic.readAll(broker.bootstrap(), (int) spooled + 100, WAIT).stream()
                .map(r -> r.record().id()).distinct().count()).isEqualTo(spooled + 100);
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(String.join(" ", command) + ": " + output).isZero();
    }

    /** Every id 0..total-1 arrived, keyed by its server, and per server in order of first arrival. */
    private static void assertInOrderPerServer(List<FlowTopic.Received> got, int total) {
        Map<String, Set<Integer>> firstSeen = new LinkedHashMap<>();
        for (FlowTopic.Received r : got) {
            assertThat(r.key()).isEqualTo(r.record().src());
            int n = Integer.parseInt(r.record().id().substring(4)) - 100_000;
            firstSeen.computeIfAbsent(r.key(), k -> new LinkedHashSet<>()).add(n);
        }
        List<Integer> all = new ArrayList<>();
        firstSeen.forEach((server, ids) -> {
            assertThat(new ArrayList<>(ids)).as("records of %s in order", server).isSorted();
            all.addAll(ids);
        });
        assertThat(all).containsExactlyInAnyOrderElementsOf(IntStream.range(0, total).boxed().toList());
    }
}
