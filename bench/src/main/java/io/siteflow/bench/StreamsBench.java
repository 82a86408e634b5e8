package io.siteflow.bench;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordFormatException;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.model.wire.Topics;
import io.siteflow.processor.app.ProcessorRuntime;
import io.siteflow.processor.app.ProcessorSettings;
import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.kafka.topics.SiteflowTopics;
import io.siteflow.kafka.topics.TopicAdmin;
import io.siteflow.processor.query.InstanceClient;
import io.siteflow.synth.SyntheticCluster;
import io.siteflow.processor.topology.SiteflowTopology;
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
 *   <li><b>throughput</b>: the siteflow topology, started as {@code siteflow process} starts it
 *   ({@code exactly_once_v2}), first processes {@code WARMUP} records (environment, default 200,000), then
 *   {@code ROUNDS} rounds (default 3) of {@code N} more, each put on the topic while processing is paused and
 *   timed from the resume until the cumulative verdicts hold all their bytes; afterwards, with the topology
 *   stopped, a bare {@link KafkaConsumer} reads and parses the same records with {@link FlowRecordJson}, timed
 *   over each round's N; the ratio of the two medians;</li>
 *   <li><b>latency</b> at {@code RATE} records/s for {@code SECONDS}: export = the producer's {@code send()} of
 *   a record (the agent's hand-off to Kafka, producer settings as the agent's); verdict update = the first poll
 *   (every {@value #POLL_MS} ms) at which the cumulative verdict of the record's pair includes its bytes.</li>
 * </ol>
 * Arguments: {@code N RATE SECONDS OUT_FILE}. Writes a Markdown table to {@code OUT_FILE}.
 */
public final class StreamsBench {
    static final int POLL_MS = 25;
    /**
     * The throughput run's end is found to within this plus the commit interval (500 ms, which is also how often
     * the stores the queries read are written). Polling faster takes CPU from the topology on a 2-core machine (a
     * verdict query takes 12-35 ms, more as the aggregates grow); at 20 ms a 600,000-record run measured 27,431
     * records/s, at 200 ms 37,519.
     */
    static final int THROUGHPUT_POLL_MS = 200;
    static final int SETTLE_MAX_S = 300;
    static final long T0 = SyntheticCluster.T0;
    static final List<String> SERVERS = SyntheticCluster.SERVERS;
    /**
     * {@code ISOLATION}: {@code none} (default: the product's topology, the model without an {@code isolation:}
     * block), {@code policy} (the product's topology, the model with {@link #POLICY_20}), {@code off} (no stage after
     * classification: the topology without the isolation stage).
     */
    static final String ISOLATION = System.getenv().getOrDefault("ISOLATION", "none");
    /** {@code WHATIF}: {@code on} (default: the product's what-if stage), {@code off} (the topology without it). */
    static final String WHATIF = System.getenv().getOrDefault("WHATIF", "on");
    /**
     * A 20-rule isolation policy over the synthetic cluster (5 deny, 15 allow rules; the rule that allows its DB
     * traffic is the last allow rule, so every DB record is checked against all 20; its T3 to wls1 is allowed by none:
     * a fifth of the records are violations, each with its nearest allow rule computed).
     */
    static final String POLICY_20 = """
            isolation:
              scope: cross-site
              default: deny
              groups:
                soa: { roles: [app-server] }
                db: { roles: [db] }
                r1: { sites: [region1] }
                r2: { sites: [region2] }
                ops: { cidrs: [10.9.0.0/24] }
                wls: { hosts: [wls1, wls3, wls4, wls5] }
              deny:
                - { name: no-t3-to-db, from: any, to: db, l7: [t3] }
                - { name: no-giop-to-db, from: any, to: db, l7: [giop] }
                - { name: no-http-to-db, from: any, to: db, l7: [http] }
                - { name: no-unlisted-to-db, from: unlisted, to: db }
                - { name: no-ops-ssh, from: ops, to: soa, ports: [22] }
              allow:
                - { name: ops-ssh, from: ops, to: any, ports: [22] }
                - { name: ops-https, from: ops, to: any, ports: [443] }
                - { name: frontend, from: any, to: soa, ports: [8001, 8002], l7: [http] }
                - { name: admin, from: soa, to: soa, ports: [7001], categories: [ADMIN] }
                - { name: coherence, from: soa, to: soa, categories: [COHERENCE] }
                - { name: jms, from: soa, to: soa, categories: [JMS] }
                - { name: cluster-r1, from: r1, to: r1, categories: [CLUSTER] }
                - { name: cluster-r2, from: r2, to: r2, categories: [CLUSTER] }
                - { name: dns, from: any, to: any, ports: [53] }
                - { name: ntp, from: any, to: any, ports: [123] }
                - { name: ldap, from: soa, to: any, ports: [389, 636] }
                - { name: smtp, from: soa, to: any, ports: [25] }
                - { name: db-r2, from: r2, to: db, ports: [1522] }
                - { name: db-backup, from: db, to: db, ports: [1521] }
                - { name: app-db, from: wls, to: db, categories: [DB], ports: [1521], l7: [oracle-tns] }
            """;
    static final String SITES = SyntheticCluster.SITES + (ISOLATION.equals("policy") ? POLICY_20 : "");

    private StreamsBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        int rate = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        Path out = Path.of(args[3]);
        Path dir = Files.createTempDirectory("siteflow-streams-bench");
        String external = System.getenv().getOrDefault("BOOTSTRAP", "");
        if (!external.isEmpty()) {
            // a broker in its own process (bench/streams.sh BROKER=separate), as in production
            run(external, dir, n, rate, seconds, out);
            return;
        }
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).build()) {
            broker.start();
            run(broker.bootstrap(), dir, n, rate, seconds, out);
        }
    }

    private static void run(String bootstrap, Path dir, int n, int rate, int seconds, Path out) throws Exception {
        TopicAdmin.ensureTopics(bootstrap, SiteflowTopics.SINGLE_NODE);
        publishModel(bootstrap);
        int warmup = Integer.parseInt(System.getenv().getOrDefault("WARMUP", "200000"));
        int rounds = Integer.parseInt(System.getenv().getOrDefault("ROUNDS", "3"));
        Preloaded pre = plan(warmup, n * rounds);
        double[] streams;
        LatencyRun.Result lat;
        String threads;
        try (ProcessorRuntime rt = runtime(bootstrap, dir)) {
            threads = String.valueOf(rt.streams().metadataForLocalThreads().size());
            streams = topology(bootstrap, rt, pre, n, rounds);
            lat = new LatencyRun(bootstrap, rt, pre.totals(), rate, seconds, POLL_MS).run();
        }
        double[] floor = StreamsFloor.run(bootstrap, dir.resolve("floor-state"), warmup, n, rounds);
        double[] bare = bareConsumer(bootstrap, warmup, n, rounds);
        Files.writeString(out, table(n, warmup, threads, bare, floor, streams, rate, seconds, lat));
    }

    /** Record n ({@link SyntheticCluster#flow}): server n % 3 towards the DB, or every fifth towards wls1 over T3. */
    static FlowRecord flow(long n, long start, String id) {
        return SyntheticCluster.flow(n, start, id);
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
        p.send(new ProducerRecord<>(Topics.FLOWS, r.src().getBytes(StandardCharsets.UTF_8),
                FlowRecordJson.toBytes(r)));
    }

    private static void publishModel(String bootstrap) throws Exception {
        try (KafkaProducer<String, String> p = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new StringSerializer(), new StringSerializer())) {
            p.send(new ProducerRecord<>(Topics.SITES, Topics.SITES_KEY, SITES)).get();
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

        /** Running totals once the first {@code records} records are counted. */
        long[] after(int records) {
            long[] t = new long[prefix.length];
            for (int i = 0; i < t.length; i++) {
                int k = countOf(i, records);
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

    /** The running totals of warmup + n records, 5 ms of event time apart (sent later by {@link #send}). */
    private static Preloaded plan(int warmup, int n) {
        int total = warmup + n;
        long[][] prefix = new long[SERVERS.size()][];
        for (int i = 0; i < prefix.length; i++) {
            prefix[i] = new long[total / prefix.length + (i < total % prefix.length ? 1 : 0)];
        }
        int[] next = new int[SERVERS.size()];
        for (int i = 0; i < total; i++) {
            FlowRecord r = flow(i, T0 + i * 5L, "pre-" + i);
            int s = serverIndex(r);
            long before = next[s] == 0 ? 0 : prefix[s][next[s] - 1];
            prefix[s][next[s]++] = before + r.bytes() + r.rbytes();
        }
        return new Preloaded(prefix, warmup);
    }

    /** Sends the planned records {@code from} (inclusive) to {@code to} (exclusive). */
    private static void send(String bootstrap, int from, int to) {
        try (KafkaProducer<byte[], byte[]> p = producer(bootstrap)) {
            for (int i = from; i < to; i++) {
                send(p, flow(i, T0 + i * 5L, "pre-" + i));
            }
            p.flush();
        }
    }

    /**
     * Records/s of a bare consumer that reads and parses warmup + rounds &times; n records, timed over each
     * round's n records in turn.
     */
    private static double[] bareConsumer(String bootstrap, int warmup, int n, int rounds)
            throws FlowRecordFormatException {
        Map<String, Object> conf = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1000);
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(conf, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(Topics.FLOWS).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            RoundClock clock = new RoundClock(warmup, n, rounds);
            long bytes = 0;
            long read = 0;
            while (read < clock.total()) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(java.time.Duration.ofMillis(100))) {
                    clock.before(read);
                    FlowRecord f = FlowRecordJson.parse(r.value());
                    bytes += f.bytes() + f.rbytes();
                    clock.after(read++);
                }
            }
            double[] rates = clock.rates("bare consumer");
            System.err.printf(Locale.ROOT, "streams-bench: bare consumer read %d records (%d bytes)%n", read, bytes);
            return rates;
        }
    }

    private static ProcessorRuntime runtime(String bootstrap, Path dir) throws IOException {
        Path sites = Files.writeString(dir.resolve("sites.yaml"), SITES);
        ProcessorSettings settings = new ProcessorSettings(bootstrap, sites, 0, "127.0.0.1", "127.0.0.1", "",
                kafkaOverrides(), dir.resolve("state"), TopologyConfig.DEFAULTS.withApplicationId("streams-bench"), SiteflowTopics.SINGLE_NODE);
        // ISOLATION=off and WHATIF=off each leave their stage out of the product's list
        java.util.List<io.siteflow.processor.topology.ClassifiedStage> stages = SiteflowTopology.STAGES.stream()
                .filter(st -> !(ISOLATION.equals("off") && st.name().equals("isolation")))
                .filter(st -> !(WHATIF.equals("off") && st.name().equals("whatif"))).toList();
        ProcessorRuntime rt = ProcessorRuntime.create(settings, InstanceClient.NONE, stages);
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
     * Records/s through the warm topology, on the same footing as the bare consumer, in {@code rounds} rounds:
     * the warm-up records are sent and processed completely (verdicts hold their bytes); then, each round, once
     * the JIT compiler is quiet, processing is paused ({@link KafkaStreams#pause()}), the round's n records are
     * put on the topic, processing resumes, and the time runs from the resume to the moment the cumulative
     * verdicts, read as {@code GET /api/verdicts} reads them, hold every record's bytes. So no producer shares
     * the two cores while the topology is timed (the bare consumer is timed without one too). The later rounds
     * show the steady state a processor running for days is in: the JIT compiler still took a third of the
     * cores in the first round after a 100,000-record warm-up.
     */
    private static double[] topology(String bootstrap, ProcessorRuntime rt, Preloaded pre, int n, int rounds)
            throws Exception {
        send(bootstrap, 0, pre.warmup());
        long[] warm = pre.after(pre.warmup());
        while (!java.util.Arrays.equals(crossBytes(rt), warm)) {
            Thread.sleep(THROUGHPUT_POLL_MS);
        }
        double[] rates = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            int from = pre.warmup() + round * n;
            settleJit();
            rt.streams().pause();
            send(bootstrap, from, from + n);
            long parsedBefore = rt.metrics().recordsIn();
            ThreadCpu cpu = ThreadCpu.take();
            long t1 = System.nanoTime();
            rt.streams().resume();
            long[] all = pre.after(from + n);
            long nextReport = t1;
            while (true) {
                long[] now = crossBytes(rt);
                if (java.util.Arrays.equals(now, all)) {
                    break;
                }
                if (System.nanoTime() >= nextReport) { // progress: records counted by the verdicts, records parsed
                    System.err.printf(Locale.ROOT, "streams-bench: progress %d counted, %d parsed%n",
                            now[0] < 0 ? 0 : pre.counted(now) - from, rt.metrics().recordsIn() - parsedBefore);
                    nextReport += 2_000_000_000L;
                }
                Thread.sleep(THROUGHPUT_POLL_MS);
            }
            double s = (System.nanoTime() - t1) / 1e9;
            rates[round] = n / s;
            System.err.printf(Locale.ROOT, "streams-bench: round %d: topology %d records after %d in %.2f s "
                    + "(parse step ran %d times)%n", round + 1, n, from, s, rt.metrics().recordsIn());
            System.err.println("streams-bench: round " + (round + 1) + " topology cpu: "
                    + ThreadCpu.take().since(cpu, s));
        }
        return rates;
    }

    /**
     * Waits (at most {@value #SETTLE_MAX_S} s) until the JIT compilers have used less than a tenth of a core for
     * two seconds: on two cores the C2 thread works through its queue for minutes after the warm-up records and
     * took 40% of the CPU in the timed phase (ThreadCpu) when the timing started at once.
     */
    private static void settleJit() throws InterruptedException {
        long start = System.nanoTime();
        ThreadCpu before = ThreadCpu.take();
        while (System.nanoTime() - start < SETTLE_MAX_S * 1_000_000_000L) {
            Thread.sleep(2_000);
            ThreadCpu now = ThreadCpu.take();
            if (now.jit() - before.jit() < 0.2) {
                break;
            }
            before = now;
        }
        System.err.printf(Locale.ROOT, "streams-bench: waited %.0f s for the JIT compiler to go quiet%n",
                (System.nanoTime() - start) / 1e9);
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

    /** The median of the rates (the lower middle one for an even count). */
    static double median(double[] rates) {
        double[] sorted = rates.clone();
        java.util.Arrays.sort(sorted);
        return sorted[(sorted.length - 1) / 2];
    }

    private static String rounds(double[] rates) {
        StringBuilder b = new StringBuilder();
        for (double r : rates) {
            b.append(b.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%,.0f", r));
        }
        return b.toString();
    }

    private static String table(int n, int warmup, String threads, double[] bare, double[] floor, double[] streams,
                                int rate, int seconds, LatencyRun.Result lat) {
        StringBuilder b = new StringBuilder();
        b.append("| measure | value |\n|---|---|\n");
        b.append(String.format(Locale.ROOT, "| bare consumer + FlowRecordJson, %d rounds of %,d records after %,d "
                + "warm-up | median %,.0f records/s (rounds: %s) |%n", bare.length, n, warmup, median(bare),
                rounds(bare)));
        b.append(String.format(Locale.ROOT, "| siteflow topology (exactly_once_v2, %s stream thread%s; isolation "
                + "stage: %s; what-if stage: %s), the same rounds | median %,.0f records/s (rounds: %s) |%n", threads,
                threads.equals("1") ? "" : "s", ISOLATION.equals("off") ? "off" : ISOLATION.equals("policy")
                        ? "on, 20-rule policy" : "on, no policy", WHATIF.equals("off") ? "off" : "on", median(streams),
                rounds(streams)));
        b.append(String.format(Locale.ROOT, "| **ratio of the medians, topology / bare consumer** (goal >= 0.5) "
                + "| **%.2f** |%n", median(streams) / median(bare)));
        b.append(String.format(Locale.ROOT, "| Kafka Streams alone: read + FlowRecordJson, exactly_once_v2, 1 stream "
                + "thread, the same rounds | median %,.0f records/s (rounds: %s); %.2f of the bare consumer |%n",
                median(floor), rounds(floor), median(floor) / median(bare)));
        b.append(String.format(Locale.ROOT, "| offered rate, %d s | %,d records/s (sent %,d at %,.0f/s) |%n", seconds,
                rate, lat.sent(), lat.sentRate()));
        b.append(String.format(Locale.ROOT, "| export -> verdict update p50 | %,d ms |%n", lat.p50Ms()));
        b.append(String.format(Locale.ROOT, "| **export -> verdict update p99** (goal <= 2 s) | **%,d ms** |%n",
                lat.p99Ms()));
        b.append(String.format(Locale.ROOT, "| export -> verdict update max | %,d ms |%n", lat.maxMs()));
        return b.toString();
    }
}
