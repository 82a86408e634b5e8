package io.siteflow.bench;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordFormatException;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.processor.app.ProcessorRuntime;
import io.siteflow.processor.app.ProcessorSettings;
import io.siteflow.processor.broker.EmbeddedKafkaBroker;
import io.siteflow.processor.broker.SiteflowTopics;
import io.siteflow.processor.broker.TopicAdmin;
import io.siteflow.processor.query.InstanceClient;
import io.siteflow.processor.topology.TopologyConfig;
import io.siteflow.rules.verdict.Verdict;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The streaming pipeline's benchmark ({@code bench/streams.sh}, docs/BENCHMARKS.md "Streaming pipeline"), in
 * one JVM on an embedded single-node broker:
 * <ol>
 *   <li><b>throughput</b>: {@code WARMUP} (environment, default 100,000) + {@code N} flow records already on
 *   {@code siteflow.flows}; (a) a bare {@link KafkaConsumer} reads and parses them with {@link FlowRecordJson},
 *   timed over the last N, (b) the siteflow topology with the settings of {@code siteflow process}
 *   ({@code exactly_once_v2}) processes them, timed from the moment the cumulative verdicts, read as
 *   {@code GET /api/verdicts} reads them, hold the warm-up records' bytes to the moment they hold every record's
 *   bytes (the JIT compiler still takes a core for the first ~30 s); the ratio (b)/(a);</li>
 *   <li><b>latency</b> at {@code RATE} records/s for {@code SECONDS}: export = the producer's {@code send()} of
 *   a record (the agent's hand-off to Kafka, producer settings as the agent's); verdict update = the first poll
 *   (every {@value #POLL_MS} ms) at which the cumulative verdict of the record's pair includes its bytes.</li>
 * </ol>
 * Arguments: {@code N RATE SECONDS OUT_FILE}. Writes a Markdown table to {@code OUT_FILE}.
 */
public final class StreamsBench {
    static final int POLL_MS = 25;
    /** The throughput run's end is found to within this (a verdict query costs the stream thread's core time). */
    static final int THROUGHPUT_POLL_MS = 20;
    static final long T0 = 1_764_000_000_000L;
    static final List<String> SERVERS = List.of("10.2.0.20", "10.2.0.21", "10.2.0.22");
    static final String SITES = """
            threshold: 0.90
            minCrossBytes: 1000
            defaults: none
            sites:
              region1: { cidrs: [10.1.0.0/16] }
              region2: { cidrs: [10.2.0.0/16] }
            hosts:
              - { address: 10.1.0.10, name: db1, role: db }
              - { address: 10.1.0.20, name: wls1, role: app-server }
              - { address: 10.2.0.20, name: wls3, role: app-server }
              - { address: 10.2.0.21, name: wls4, role: app-server }
              - { address: 10.2.0.22, name: wls5, role: app-server }
            rules:
              - { name: oracle-ports, category: DB, ports: [1521] }
              - { name: t3, category: CLUSTER, ports: [7001] }
            """;

    private StreamsBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        int rate = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        Path out = Path.of(args[3]);
        Path dir = Files.createTempDirectory("siteflow-streams-bench");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).build()) {
            broker.start();
            String bootstrap = broker.bootstrap();
            TopicAdmin.ensureTopics(bootstrap, SiteflowTopics.SINGLE_NODE);
            publishModel(bootstrap);
            int warmup = Integer.parseInt(System.getenv().getOrDefault("WARMUP", "100000"));
            Preloaded pre = preload(bootstrap, warmup, n);
            double bare = bareConsumer(bootstrap, warmup, n);
            try (ProcessorRuntime rt = runtime(bootstrap, dir)) {
                double streams = topology(rt, pre);
                long[] expected = pre.totals();
                LatencyRun.Result lat = new LatencyRun(bootstrap, rt, expected, rate, seconds, POLL_MS).run();
                Files.writeString(out, table(n, warmup, bare, streams, rate, seconds, lat));
            }
        }
    }

    /**
     * Record n of server n % 3 towards the DB (or every fifth towards wls1 over T3), from one of 40 pooled
     * connections per server (a JDBC pool: few connections, many records each).
     */
    static FlowRecord flow(long n, long start, String id) {
        String server = SERVERS.get((int) (n % SERVERS.size()));
        boolean t3 = n % 5 == 4;
        long bytes = 1_000 + n % 97;
        long rbytes = 3_000 + n % 89;
        return new FlowRecord(FlowRecord.SCHEMA, "edge-b", "eth0", start, start + 50, 6, server,
                (int) (40_000 + (n / 3) % 40), t3 ? "10.1.0.20" : "10.1.0.10", t3 ? 7001 : 1521, bytes, 3, rbytes, 4,
                bytes + 42, rbytes + 56, 0x1b, 0x1b, null, t3 ? "t3" : "oracle-tns", null, false, id);
    }

    static int serverIndex(FlowRecord r) {
        return SERVERS.indexOf(r.src());
    }

    /** A producer with the agent's settings (KafkaFlowSink): acks=all, idempotent, lz4, 20 ms linger. */
    static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4", ProducerConfig.LINGER_MS_CONFIG, 20,
                ProducerConfig.BATCH_SIZE_CONFIG, 131_072), new ByteArraySerializer(), new ByteArraySerializer());
    }

    static void send(KafkaProducer<byte[], byte[]> p, FlowRecord r) {
        p.send(new ProducerRecord<>(SiteflowTopics.FLOWS, r.src().getBytes(StandardCharsets.UTF_8),
                FlowRecordJson.toBytes(r)));
    }

    private static void publishModel(String bootstrap) throws Exception {
        try (KafkaProducer<String, String> p = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new StringSerializer(), new StringSerializer())) {
            p.send(new ProducerRecord<>(SiteflowTopics.SITES, "sites", SITES)).get();
        }
    }

    /**
     * The records put on the topic: per server, the running total of cross-site bytes after each of its records
     * (records of one server are processed in order), and the count of warm-up records before the measured ones.
     */
    record Preloaded(long[][] prefix, int warmup) {
        long[] totals() {
            long[] t = new long[prefix.length];
            for (int i = 0; i < t.length; i++) {
                t[i] = prefix[i].length == 0 ? 0 : prefix[i][prefix[i].length - 1];
            }
            return t;
        }

        /** Running totals once the warm-up records are counted. */
        long[] afterWarmup() {
            long[] t = new long[prefix.length];
            for (int i = 0; i < t.length; i++) {
                int k = countOf(i, warmup);
                t[i] = k == 0 ? 0 : prefix[i][k - 1];
            }
            return t;
        }

        /** Records counted when the servers' totals are {@code bytes}. */
        int counted(long[] bytes) {
            int n = 0;
            for (int i = 0; i < prefix.length; i++) {
                int k = java.util.Arrays.binarySearch(prefix[i], bytes[i]);
                n += k >= 0 ? k + 1 : -k - 1;
            }
            return n;
        }

        /** How many of the first {@code records} records are server i's (records go round the servers). */
        private int countOf(int server, int records) {
            return records / prefix.length + (server < records % prefix.length ? 1 : 0);
        }
    }

    /** Sends warmup + n records, 5 ms of event time apart. */
    private static Preloaded preload(String bootstrap, int warmup, int n) {
        int total = warmup + n;
        long[][] prefix = new long[SERVERS.size()][];
        for (int i = 0; i < prefix.length; i++) {
            prefix[i] = new long[total / prefix.length + (i < total % prefix.length ? 1 : 0)];
        }
        int[] next = new int[SERVERS.size()];
        try (KafkaProducer<byte[], byte[]> p = producer(bootstrap)) {
            for (int i = 0; i < total; i++) {
                FlowRecord r = flow(i, T0 + i * 5L, "pre-" + i);
                int s = serverIndex(r);
                long before = next[s] == 0 ? 0 : prefix[s][next[s] - 1];
                prefix[s][next[s]++] = before + r.bytes() + r.rbytes();
                send(p, r);
            }
            p.flush();
        }
        return new Preloaded(prefix, warmup);
    }

    /** Records/s of a bare consumer that reads and parses warmup + n records, timed over the last n. */
    private static double bareConsumer(String bootstrap, int warmup, int n) throws FlowRecordFormatException {
        Map<String, Object> conf = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1000);
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(conf, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(SiteflowTopics.FLOWS).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            long first = 0;
            long bytes = 0;
            int read = 0;
            while (read < warmup + n) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(java.time.Duration.ofMillis(100))) {
                    if (read == warmup) {
                        first = System.nanoTime();
                    }
                    FlowRecord f = FlowRecordJson.parse(r.value());
                    bytes += f.bytes() + f.rbytes();
                    read++;
                }
            }
            double s = (System.nanoTime() - first) / 1e9;
            System.err.printf(Locale.ROOT, "streams-bench: bare consumer %d records (%d bytes), the last %d in %.2f s%n",
                    read, bytes, n, s);
            return n / s;
        }
    }

    private static ProcessorRuntime runtime(String bootstrap, Path dir) throws IOException {
        Path sites = Files.writeString(dir.resolve("sites.yaml"), SITES);
        ProcessorSettings settings = new ProcessorSettings(bootstrap, sites, 0, "127.0.0.1", "127.0.0.1", "",
                kafkaOverrides(), dir.resolve("state"), TopologyConfig.DEFAULTS.withApplicationId("streams-bench"), SiteflowTopics.SINGLE_NODE);
        ProcessorRuntime rt = ProcessorRuntime.create(settings, InstanceClient.NONE);
        rt.start();
        return rt;
    }

    /** Kafka Streams properties from the environment, as {@code siteflow process --kafka} takes them:
     *  {@code STREAMS_KAFKA="commit.interval.ms=1000 producer.linger.ms=5"}. */
    private static Map<String, String> kafkaOverrides() {
        Map<String, String> m = new java.util.TreeMap<>();
        String env = System.getenv().getOrDefault("STREAMS_KAFKA", "");
        for (String kv : env.trim().split("\\s+")) {
            if (!kv.isEmpty()) {
                int eq = kv.indexOf('=');
                m.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
        }
        if (!m.isEmpty()) {
            System.err.println("streams-bench: --kafka " + m);
        }
        return m;
    }

    /**
     * Records/s through the topology after its warm-up: from the first poll at which every server's cumulative
     * verdict holds its warm-up records' bytes until it holds all bytes; the records counted in between are known
     * exactly from the servers' running totals.
     */
    private static double topology(ProcessorRuntime rt, Preloaded pre) throws InterruptedException {
        long[] warm = pre.afterWarmup();
        long[] all = pre.totals();
        long t1 = 0;
        int countedAtT1 = 0;
        while (true) {
            long[] now = crossBytes(rt);
            if (t1 == 0 && atLeast(now, warm)) {
                t1 = System.nanoTime();
                countedAtT1 = pre.counted(now);
            }
            if (t1 != 0 && java.util.Arrays.equals(now, all)) {
                break;
            }
            Thread.sleep(THROUGHPUT_POLL_MS);
        }
        double s = (System.nanoTime() - t1) / 1e9;
        int measured = pre.counted(all) - countedAtT1;
        System.err.printf(Locale.ROOT, "streams-bench: topology %d records after %d warm-up records in %.2f s "
                + "(parse step ran %d times)%n", measured, countedAtT1, s, rt.metrics().recordsIn());
        return measured / s;
    }

    private static boolean atLeast(long[] now, long[] floor) {
        for (int i = 0; i < now.length; i++) {
            if (now[i] < floor[i]) {
                return false;
            }
        }
        return true;
    }

    /** Cross-site bytes of each server's cumulative verdict, as GET /api/verdicts gives them; -1 while not ready. */
    static long[] crossBytes(ProcessorRuntime rt) {
        long[] out = new long[SERVERS.size()];
        if (rt.streams().state() != KafkaStreams.State.RUNNING) {
            java.util.Arrays.fill(out, -1);
            return out;
        }
        try {
            for (Verdict v : rt.queries().cumulativeVerdicts()) {
                int i = SERVERS.indexOf(v.server());
                if (i >= 0) {
                    out[i] = v.crossBytes();
                }
            }
        } catch (RuntimeException e) {
            java.util.Arrays.fill(out, -1); // stores not queryable (rebalance)
        }
        return out;
    }

    private static String table(int n, int warmup, double bare, double streams, int rate, int seconds, LatencyRun.Result lat) {
        StringBuilder b = new StringBuilder();
        b.append("| measure | value |\n|---|---|\n");
        b.append(String.format(Locale.ROOT, "| bare consumer + FlowRecordJson, %,d records after %,d warm-up | %,.0f records/s |%n", n,
                warmup, bare));
        b.append(String.format(Locale.ROOT, "| siteflow topology (exactly_once_v2), same records after the same warm-up | %,.0f records/s |%n",
                streams));
        b.append(String.format(Locale.ROOT, "| **ratio topology / bare consumer** (goal >= 0.5) | **%.2f** |%n",
                streams / bare));
        b.append(String.format(Locale.ROOT, "| offered rate, %d s | %,d records/s (sent %,d at %,.0f/s) |%n", seconds,
                rate, lat.sent(), lat.sentRate()));
        b.append(String.format(Locale.ROOT, "| export -> verdict update p50 | %,d ms |%n", lat.p50Ms()));
        b.append(String.format(Locale.ROOT, "| **export -> verdict update p99** (goal <= 2 s) | **%,d ms** |%n",
                lat.p99Ms()));
        b.append(String.format(Locale.ROOT, "| export -> verdict update max | %,d ms |%n", lat.maxMs()));
        return b.toString();
    }
}
