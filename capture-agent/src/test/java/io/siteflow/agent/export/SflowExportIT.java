package io.siteflow.agent.export;

import static org.assertj.core.api.Assertions.assertThat;
import static io.siteflow.agent.export.ExportProcesses.GUARD;
import static io.siteflow.agent.export.ExportProcesses.records;
import static io.siteflow.agent.export.ExportProcesses.terminate;
import static org.awaitility.Awaitility.await;

import io.siteflow.agent.export.ExportProcesses.Collector;
import io.siteflow.model.FlowRecord;
import io.siteflow.synth.CapturePoint;
import io.siteflow.synth.StretchedClusterScenario;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real sFlow exporter: Debian's {@code pmacctd} with the {@code sfprobe} plugin reads a capture traffic-synth writes
 * (a region edge, 60 s of a stretched cluster) and sends sFlow v5 to a UDP tee in this test, which forwards every
 * datagram (but those it drops on purpose) to {@code siteflow collect --sflow} (a child JVM, stopped with SIGTERM).
 * The capture's own per host pair counts come from {@code tshark} (IP bytes as the agent counts them: the IPv4 total
 * length, 40 + the IPv6 payload length). At 1-in-1 siteflow's bytes and packets per host pair equal the capture's
 * (its first packets, as many as pmacctd exported: it leaves the last few in its plugin buffer at the end of the
 * file); at 1-in-10 (pmacctd samples by a random skip) each pair's share of the bytes and each server's DB share
 * are within the bound collect.md derives from the capture's packets; datagrams dropped in the tee are counted exactly from the sequence
 * numbers. Every socket's kernel drop counter ({@code /proc/net/udp}) is 0. Loopback only; processes stopped by PID.
 */
class SflowExportIT {
    private static final Pattern LISTENING = Pattern.compile("collecting on udp 127\\.0\\.0\\.1:(\\d+) \\(sFlow\\)");
    private static final Pattern SFLOW = Pattern.compile("sFlow: (\\d+) flow samples, (\\d+) packets in flows, (\\d+) "
            + "not IP; (\\d+) counter samples \\((\\d+) interface counters\\); (\\d+) skipped by length; (\\d+) "
            + "datagrams lost by sequence numbers; (\\d+) dropped by agents");
    /** The bound in standard deviations of the sampled share (collect.md): a normal tail of 5.7e-7 per pair. */
    private static final double SIGMAS = 5;
    /** The synthetic cluster's servers seen at the region edge (region 2) and its DB port (rules: oracle-ports). */
    private static final String SERVERS = "10.2.0.";
    private static final String DB_PORT = "1521";

    @TempDir
    static Path shared;
    @TempDir
    Path dir;

    private static Path capture;
    /** The capture's IP packets in order, from tshark: host pair (lower address first) and IP length. */
    private static List<Pkt> packets;
    /** Per host pair: the IP lengths of its packets. */
    private static Map<String, List<Integer>> truth;

    @BeforeAll
    static void writeCapture() throws Exception {
        capture = shared.resolve("region2-edge.pcap");
        StretchedClusterScenario.builder().capturePoint(CapturePoint.regionEdge("region2", 0))
                .duration(Duration.ofSeconds(60)).build().write(capture);
        packets = tshark(capture);
        truth = pairs(packets, packets.size());
    }

    @Test
    void atOneInOneTheBytesAndPacketsPerHostPairAreTheCapturesOwn() throws Exception {
        Run run = export(1, Set.of());

        // pmacctd exports the packets in capture order, but not the last few still in its plugin buffer when the
        // file ends (6 of 55,243 here): siteflow has exactly the capture's first packets, as many as were exported
        long exported = run.tee.flowSamples;
        System.out.printf("pmacctd exported %d of the capture's %d IP packets%n", exported, packets.size());
        assertThat(exported).isBetween(packets.size() * 99L / 100, (long) packets.size());
        Map<String, List<Long>> expected = new TreeMap<>();
        pairs(packets, (int) exported).forEach((pair, lengths) -> expected.put(pair,
                List.of(lengths.stream().mapToLong(i -> i).sum(), (long) lengths.size())));
        assertThat(run.pairs()).isNotEmpty().isEqualTo(expected);
        assertThat(run.records).allSatisfy(r -> assertThat(r.sampled()).isNull());
        assertThat(run.sflow(2)).as("packets in flows").isEqualTo(exported);
        assertThat(run.sflow(7)).as("datagrams lost").isZero();
        assertThat(run.malformed()).isZero();
    }

    @Test
    void atOneInTenEachHostPairsShareOfTheBytesIsWithinTheBoundOfTheCapturesShare() throws Exception {
        Run run = export(10, Set.of());

        assertThat(run.records).isNotEmpty().allSatisfy(r -> assertThat(r.sampled()).isEqualTo(10));
        long total = truth.values().stream().flatMap(List::stream).mapToLong(i -> i).sum();
        long sampledTotal = run.pairs().values().stream().mapToLong(v -> v.get(0)).sum();
        for (Map.Entry<String, List<Integer>> e : truth.entrySet()) {
            long pairBytes = e.getValue().stream().mapToLong(i -> i).sum();
            double share = (double) pairBytes / total;
            double bound = SIGMAS * sigma(10, share, total, e.getKey());
            List<Long> got = run.pairs().getOrDefault(e.getKey(), List.of(0L, 0L));
            double sampledShare = (double) got.get(0) / sampledTotal;
            System.out.printf("pair %s: exact share %.5f, sampled %.5f, bound ±%.5f%n", e.getKey(), share,
                    sampledShare, bound);
            assertThat(Math.abs(sampledShare - share)).as("share of %s", e.getKey()).isLessThanOrEqualTo(bound);
        }
        assertThat(truth.keySet()).containsAll(run.pairs().keySet());
        // the DB share of each server (its bytes on port 1521 over all its cross-site bytes): the same bound, over
        // the server's own packets
        Map<String, long[]> sampledDb = new TreeMap<>();
        for (FlowRecord r : run.records) {
            String server = r.src().startsWith(SERVERS) ? r.src() : r.dst().startsWith(SERVERS) ? r.dst() : null;
            if (server != null) {
                long[] v = sampledDb.computeIfAbsent(server, k -> new long[2]);
                v[1] += r.totalBytes();
                if (r.srcPort() == 1521 || r.dstPort() == 1521) {
                    v[0] += r.totalBytes();
                }
            }
        }
        Map<String, List<Pkt>> byServer = new TreeMap<>();
        packets.stream().filter(p -> p.server() != null)
                .forEach(p -> byServer.computeIfAbsent(p.server(), k -> new ArrayList<>()).add(p));
        assertThat(sampledDb.keySet()).isEqualTo(byServer.keySet()).isNotEmpty();
        for (Map.Entry<String, List<Pkt>> e : byServer.entrySet()) {
            long all = e.getValue().stream().mapToLong(Pkt::length).sum();
            long db = e.getValue().stream().filter(Pkt::db).mapToLong(Pkt::length).sum();
            double share = (double) db / all;
            double sum = 0;
            for (Pkt p : e.getValue()) {
                double in = (p.db() ? 1 : 0) - share;
                sum += (double) p.length() * p.length() * in * in;
            }
            double bound = SIGMAS * Math.sqrt(9 * sum) / all;
            long[] got = sampledDb.get(e.getKey());
            double sampledShare = (double) got[0] / got[1];
            System.out.printf("server %s: exact DB share %.5f, sampled %.5f, bound ±%.5f%n", e.getKey(), share,
                    sampledShare, bound);
            assertThat(Math.abs(sampledShare - share)).as("DB share of %s", e.getKey()).isLessThanOrEqualTo(bound);
        }
        // the sampled packets: binomial(n, 1/10) within 5 standard deviations
        long n = packets(truth);
        double sd = Math.sqrt(n * 0.1 * 0.9);
        assertThat((double) run.sflow(2)).isBetween(n / 10.0 - SIGMAS * sd, n / 10.0 + SIGMAS * sd);
        assertThat(run.sflow(7)).as("datagrams lost").isZero();
        assertThat(run.malformed()).isZero();
    }

    @Test
    void datagramsDroppedInTheTeeAreCountedExactlyFromSequenceNumbers() throws Exception {
        Run run = export(1, Set.of(10, 20, 21));

        assertThat(run.tee.dropped).containsExactly(10, 20, 21);
        assertThat(run.sflow(7)).as("datagrams lost").isEqualTo(3);
        assertThat(run.sflow(2)).as("packets in flows").isEqualTo(run.tee.flowSamples - run.tee.droppedFlowSamples);
        assertThat(run.malformed()).isZero();
    }

    /**
     * The standard deviation of the sampled byte share of {@code pair} at 1 in {@code n} (collect.md): each packet
     * taken with probability 1/n and counted n times; by the delta method the share's variance is
     * {@code (n - 1) / T^2 * sum over packets of b^2 (1[packet in pair] - s)^2}.
     */
    private static double sigma(int n, double share, long total, String pair) {
        double sum = 0;
        for (Map.Entry<String, List<Integer>> e : truth.entrySet()) {
            double in = e.getKey().equals(pair) ? 1 - share : -share;
            for (int b : e.getValue()) {
                sum += (double) b * b * in * in;
            }
        }
        return Math.sqrt((n - 1) * sum) / total;
    }

    private static long packets(Map<String, List<Integer>> pairs) {
        return pairs.values().stream().mapToLong(List::size).sum();
    }

    private Run export(int sampling, Set<Integer> drop) throws Exception {
        Path json = dir.resolve("flows-" + sampling + ".jsonl");
        Tee tee = null;
        try (Collector collect = Collector.start(LISTENING, "--sflow", "127.0.0.1:0", "--json=" + json, "--agent",
                "edge-b")) {
            int collectPort = collect.awaitPort();
            tee = new Tee(collectPort, drop);
            runPmacctd(tee.port(), sampling);
            tee.close();
            await().atMost(GUARD).until(() -> UdpSockets.find(collectPort).rxQueue() == 0);
            assertThat(UdpSockets.find(collectPort).drops()).as("kernel drops at siteflow collect").isZero();
            String err = collect.stop();
            System.out.printf("sFlow 1 in %d, tee dropped %s on the way to siteflow collect:%n%s", sampling,
                    tee.dropped, err);
            return new Run(tee, records(json), err);
        } finally {
            if (tee != null) {
                tee.close();
            }
        }
    }

    private void runPmacctd(int teePort, int sampling) throws Exception {
        Path conf = dir.resolve("pmacctd-sflow-" + sampling + ".conf");
        Files.writeString(conf, String.join("\n", "daemonize: false", "pcap_savefile: " + capture,
                "pcap_savefile_wait: false", "plugins: sfprobe", "sfprobe_receiver: 127.0.0.1:" + teePort,
                sampling > 1 ? "sampling_rate: " + sampling : "", "plugin_pipe_size: 10240000",
                "plugin_buffer_size: 10240", ""));
        ExportProcesses.runPmacctd(conf, dir.resolve("pmacctd-sflow-" + sampling + ".log"));
    }

    /** One IP packet: its host pair, IP length, the server end in region 2 (10.2.0.x) if any, and whether DB. */
    private record Pkt(String pair, int length, String server, boolean db) {
    }

    /** Per host pair the IP lengths of the first {@code n} packets. */
    private static Map<String, List<Integer>> pairs(List<Pkt> packets, int n) {
        Map<String, List<Integer>> pairs = new TreeMap<>();
        for (Pkt p : packets.subList(0, n)) {
            pairs.computeIfAbsent(p.pair(), k -> new ArrayList<>()).add(p.length());
        }
        return pairs;
    }

    /** Host pair (lower address first) and IP length of every IP packet of the capture, in order. */
    private static List<Pkt> tshark(Path pcap) throws Exception {
        Process p = new ProcessBuilder("tshark", "-n", "-r", pcap.toString(), "-Y", "ip or ipv6", "-T", "fields",
                "-E", "separator=|", "-e", "ip.src", "-e", "ip.dst", "-e", "ip.len", "-e", "ipv6.src", "-e",
                "ipv6.dst", "-e", "ipv6.plen", "-e", "tcp.srcport", "-e", "tcp.dstport").start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(GUARD.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(err.get()).isZero();
        List<Pkt> pairs = new ArrayList<>();
        for (String line : out.lines().filter(l -> !l.isBlank()).toList()) {
            String[] f = line.split("\\|", -1);
            boolean v4 = !f[0].isEmpty();
            String a = first(v4 ? f[0] : f[3]);
            String b = first(v4 ? f[1] : f[4]);
            int length = v4 ? Integer.parseInt(first(f[2])) : 40 + Integer.parseInt(first(f[5]));
            String server = a.startsWith(SERVERS) ? a : b.startsWith(SERVERS) ? b : null;
            boolean db = first(f[6]).equals(DB_PORT) || first(f[7]).equals(DB_PORT);
            pairs.add(new Pkt(a.compareTo(b) <= 0 ? a + " " + b : b + " " + a, length, server, db));
        }
        return pairs;
    }

    /** The outer header's value of a field tshark lists once per header. */
    private static String first(String values) {
        int comma = values.indexOf(',');
        return comma < 0 ? values : values.substring(0, comma);
    }

    /** One export: the tee's drops, siteflow's records and end-of-run summary. */
    private record Run(Tee tee, List<FlowRecord> records, String summary) {
        /** Per host pair (lower address first): bytes and packets of the records, both directions. */
        Map<String, List<Long>> pairs() {
            Map<String, List<Long>> pairs = new TreeMap<>();
            for (FlowRecord r : records) {
                String a = r.src();
                String b = r.dst();
                List<Long> v = pairs.computeIfAbsent(a.compareTo(b) <= 0 ? a + " " + b : b + " " + a,
                        k -> new ArrayList<>(List.of(0L, 0L)));
                v.set(0, v.get(0) + r.totalBytes());
                v.set(1, v.get(1) + r.totalPackets());
            }
            return pairs;
        }

        /** A number of the summary's sFlow line, by its group in {@link #SFLOW}. */
        long sflow(int group) {
            Matcher m = SFLOW.matcher(summary);
            assertThat(m.find()).as("the sFlow line in " + summary).isTrue();
            return Long.parseLong(m.group(group));
        }

        long malformed() {
            Matcher m = Pattern.compile("(\\d+) malformed").matcher(summary);
            assertThat(m.find()).as("malformed in " + summary).isTrue();
            return Long.parseLong(m.group(1));
        }
    }

    /**
     * A UDP tee on loopback to siteflow: the datagrams whose index (0, 1, ... in arrival order) is to be dropped are
     * not forwarded; it counts the flow samples of what it drops.
     */
    private static final class Tee implements AutoCloseable {
        final DatagramSocket socket;
        final int target;
        final Set<Integer> drop;
        final List<Integer> dropped = new ArrayList<>();
        volatile long droppedFlowSamples;
        /** Flow samples received from pmacctd, dropped ones included. */
        volatile long flowSamples;
        private final Thread thread;
        private volatile boolean closed;
        private volatile Throwable failure;

        Tee(int target, Set<Integer> drop) throws SocketException {
            this.socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            this.socket.setReceiveBufferSize(4 << 20);
            this.socket.setSoTimeout(100);
            this.target = target;
            this.drop = drop;
            this.thread = new Thread(() -> {
                try {
                    forward();
                } catch (RuntimeException | Error e) {
                    failure = e;
                }
            }, "udp-tee");
            thread.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        private void forward() {
            byte[] buf = new byte[65536];
            int index = 0;
            try (DatagramSocket out = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
                while (!closed || UdpSockets.find(port()).rxQueue() > 0) {
                    DatagramPacket p = new DatagramPacket(buf, buf.length);
                    try {
                        socket.receive(p);
                    } catch (java.net.SocketTimeoutException e) {
                        continue;
                    }
                    long samples = flowSamples(java.nio.ByteBuffer.wrap(buf, 0, p.getLength()));
                    flowSamples += samples;
                    if (drop.contains(index++)) {
                        dropped.add(index - 1);
                        droppedFlowSamples += samples;
                        continue;
                    }
                    out.send(new DatagramPacket(buf, p.getLength(), InetAddress.getLoopbackAddress(), target));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The flow samples of a well-formed sFlow v5 datagram (pmacctd's: one raw header record each). */
        private static long flowSamples(java.nio.ByteBuffer d) {
            int at = d.getInt(4) == 1 ? 12 : 24;
            long count = d.getInt(at + 12) & 0xFFFF_FFFFL;
            int p = at + 16;
            long flows = 0;
            for (long i = 0; i < count; i++) {
                int format = d.getInt(p);
                if (format == 1 || format == 3) {
                    flows++;
                }
                p += 8 + d.getInt(p + 4);
            }
            return flows;
        }

        @Override
        public void close() {
            if (socket.isClosed()) {
                return;
            }
            closed = true;
            try {
                thread.join(GUARD.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while the tee drained", e);
            }
            assertThat(thread.isAlive()).as("the tee drained its socket").isFalse();
            assertThat(failure).as("the tee's thread failed").isNull();
            assertThat(UdpSockets.find(port()).drops()).as("kernel drops at the tee").isZero();
            socket.close();
        }
    }
}
