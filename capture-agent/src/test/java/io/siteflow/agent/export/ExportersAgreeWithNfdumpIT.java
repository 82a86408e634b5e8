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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real exporters against the reference collector: Debian's {@code pmacctd} with the {@code nfprobe} plugin reads a
 * capture traffic-synth writes (a region edge, 60 s of a stretched cluster) and exports it as NetFlow v5, v9 and
 * IPFIX to a UDP tee in this test, which sends every datagram to {@code siteflow collect} (a child JVM, stopped with
 * SIGTERM) and to {@code nfcapd}. Per host pair, siteflow's bytes and packets (both directions of its joined records)
 * equal {@code nfdump}'s (its unidirectional flows, added) exactly. With datagrams dropped on purpose in the tee (on
 * the way to siteflow only), siteflow counts the loss exactly from the sequence numbers: the records of the dropped
 * datagrams (v5, IPFIX: nfdump's flows minus siteflow's) or the datagrams themselves (v9). Every socket's kernel drop counter ({@code /proc/net/udp}) is 0, so the tee's drops are
 * the only ones. Loopback only; every process is stopped by its PID.
 */
class ExportersAgreeWithNfdumpIT {
    private static final Pattern LISTENING = Pattern.compile("collecting on udp 127\\.0\\.0\\.1:(\\d+)");

    @TempDir
    static Path shared;
    @TempDir
    Path dir;

    private static Path capture;

    @BeforeAll
    static void writeCapture() throws IOException {
        capture = shared.resolve("region2-edge.pcap");
        StretchedClusterScenario.builder().capturePoint(CapturePoint.regionEdge("region2", 0))
                .duration(Duration.ofSeconds(60)).build().write(capture);
    }

    @ParameterizedTest(name = "version {0}")
    @ValueSource(ints = {5, 9, 10})
    void bytesAndPacketsPerHostPairEqualNfdumpsOnTheSameDatagrams(int version) throws Exception {
        Run run = export(version, Set.of(), 1);

        assertThat(run.siteflowPairs).isNotEmpty().isEqualTo(run.nfdumpPairs);
        assertThat(run.counter("flow records")).isEqualTo(run.nfdumpFlows);
        assertThat(run.counter("lost records")).isZero();
        assertThat(run.counter("lost packets")).isZero();
        assertThat(run.counter("malformed")).isZero();
    }

    @ParameterizedTest(name = "version {0}")
    @ValueSource(ints = {5, 9, 10})
    void datagramsDroppedInTheTeeAreCountedExactlyFromSequenceNumbers(int version) throws Exception {
        Run run = export(version, Set.of(10, 20, 21), 1);

        assertThat(run.tee.dropped).hasSize(3);
        long lostRecords = run.nfdumpFlows - run.counter("flow records");
        assertThat(lostRecords).isPositive();
        if (version == 9) {
            assertThat(run.counter("lost packets")).isEqualTo(3);
            assertThat(run.counter("lost records")).isZero();
        } else {
            assertThat(run.counter("lost records")).isEqualTo(lostRecords);
            assertThat(run.counter("lost packets")).isZero();
        }
        if (version == 5) { // v5 headers count their records: the tee's own tally agrees
            assertThat(run.tee.droppedV5Records).isEqualTo(lostRecords);
        }
        assertThat(run.counter("malformed")).isZero();
    }

    @ParameterizedTest(name = "version {0}")
    @ValueSource(ints = {5, 9, 10})
    void countsOfASampledExportAreScaledByTheRateTheExporterAnnounces(int version) throws Exception {
        Run run = export(version, Set.of(), 10);

        // siteflow multiplies the counts by pmacctd's sampling_rate 10, which pmacctd announces (v9 and IPFIX: an
        // options record's samplerRandomInterval, IE 50; v5: the header). nfdump 1.7.1 applies the v5 header's rate
        // too, but shows v9 and IPFIX counts as exported
        long nfdumpScale = version == 5 ? 1 : 10;
        Map<String, List<Long>> scaled = new TreeMap<>();
        run.nfdumpPairs.forEach((pair, v) -> scaled.put(pair, List.of(v.get(0) * nfdumpScale,
                v.get(1) * nfdumpScale)));
        assertThat(run.siteflowPairs).isNotEmpty().isEqualTo(scaled);
        assertThat(run.records).allSatisfy(r -> assertThat(r.sampled()).isEqualTo(10));
    }

    /** One export of the capture through the tee to both collectors, both stopped and read. */
    private Run export(int version, Set<Integer> drop, int sampling) throws Exception {
        Path json = dir.resolve("flows-v" + version + ".jsonl");
        Path nfdir = Files.createDirectory(dir.resolve("nfcapd-v" + version));
        int nfPort = freeUdpPort();
        Process nfcapd = new ProcessBuilder("nfcapd", "-w", nfdir.toString(), "-p", Integer.toString(nfPort), "-b",
                "127.0.0.1", "-t", "3600").redirectErrorStream(true).redirectOutput(dir.resolve("nfcapd.log").toFile())
                .start();
        Tee tee = null;
        try (Collector collect = Collector.start(LISTENING, "--listen", "127.0.0.1:0", "--json=" + json, "--agent",
                "edge-b")) {
            int collectPort = collect.awaitPort();
            await().atMost(GUARD).until(() -> UdpSockets.find(nfPort) != null);
            tee = new Tee(List.of(collectPort, nfPort), drop, version);
            runPmacctd(version, tee.port(), sampling);
            tee.close();
            for (int port : List.of(collectPort, nfPort)) { // every datagram sent is read: nothing waits in a socket
                await().atMost(GUARD).until(() -> UdpSockets.find(port).rxQueue() == 0);
                assertThat(UdpSockets.find(port).drops()).as("kernel drops at port " + port).isZero();
            }
            String err = collect.stop(); // SIGTERM: the collector flushes every held conversation and exits 0
            terminate(nfcapd);
            assertThat(nfcapd.waitFor(GUARD.toSeconds(), TimeUnit.SECONDS)).isTrue();
            System.out.printf("NetFlow version %d, tee dropped %s on the way to siteflow collect:%n%s", version,
                    tee.dropped, err);
            return new Run(tee, records(json), nfdump(nfdir), err);
        } finally {
            if (tee != null) {
                tee.close();
            }
            nfcapd.destroyForcibly();
        }
    }

    private void runPmacctd(int version, int teePort, int sampling) throws Exception {
        Path conf = dir.resolve("pmacctd-v" + version + ".conf");
        Files.writeString(conf, String.join("\n", "daemonize: false", "pcap_savefile: " + capture,
                "pcap_savefile_wait: false", "plugins: nfprobe", "nfprobe_receiver: 127.0.0.1:" + teePort,
                "nfprobe_version: " + version, "nfprobe_timeouts: maxlife=5:expint=1",
                sampling > 1 ? "sampling_rate: " + sampling : "", "plugin_pipe_size: 10240000",
                "plugin_buffer_size: 10240", ""));
        ExportProcesses.runPmacctd(conf, dir.resolve("pmacctd-v" + version + ".log"));
    }

    /** Per host pair (lower address first): bytes and packets of siteflow's records, both directions. */
    private static Map<String, List<Long>> siteflowPairs(List<FlowRecord> records) {
        Map<String, List<Long>> pairs = new TreeMap<>();
        for (FlowRecord r : records) {
            add(pairs, r.src(), r.dst(), r.totalBytes(), r.totalPackets());
        }
        return pairs;
    }

    /** nfdump's flows of the directory: per host pair (lower address first) bytes and packets, and the flow count. */
    private static Nfdump nfdump(Path nfdir) throws Exception {
        Process p = new ProcessBuilder("nfdump", "-R", nfdir.toString(), "-q", "-N", "-o", "fmt:%sa|%da|%byt|%pkt")
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(GUARD.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        Map<String, List<Long>> pairs = new TreeMap<>();
        long flows = 0;
        for (String line : out.lines().filter(l -> !l.isBlank()).toList()) {
            String[] f = line.split("\\|");
            add(pairs, f[0].trim(), f[1].trim(), Long.parseLong(f[2].trim()), Long.parseLong(f[3].trim()));
            flows++;
        }
        return new Nfdump(pairs, flows);
    }

    private static void add(Map<String, List<Long>> pairs, String a, String b, long bytes, long packets) {
        String key = a.compareTo(b) <= 0 ? a + " " + b : b + " " + a;
        List<Long> v = pairs.computeIfAbsent(key, k -> new ArrayList<>(List.of(0L, 0L)));
        v.set(0, v.get(0) + bytes);
        v.set(1, v.get(1) + packets);
    }

    private static int freeUdpPort() throws SocketException {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            return s.getLocalPort();
        }
    }

    private record Nfdump(Map<String, List<Long>> pairs, long flows) {
    }

    /** What one export gave: the tee's drops, both collectors' pairs, siteflow's end-of-run summary. */
    private static final class Run {
        final Tee tee;
        final List<FlowRecord> records;
        final Map<String, List<Long>> siteflowPairs;
        final Map<String, List<Long>> nfdumpPairs;
        final long nfdumpFlows;
        final String summary;

        Run(Tee tee, List<FlowRecord> records, Nfdump nfdump, String summary) {
            this.tee = tee;
            this.records = records;
            this.siteflowPairs = siteflowPairs(records);
            this.nfdumpPairs = nfdump.pairs();
            this.nfdumpFlows = nfdump.flows();
            this.summary = summary;
        }

        /** A number of siteflow's summary: "flow records", "lost records", "lost packets", "malformed". */
        long counter(String what) {
            String pattern = switch (what) {
                case "flow records" -> "(\\d+) flow records";
                case "lost records" -> "lost by sequence numbers: (\\d+) records";
                case "lost packets" -> "(\\d+) export packets \\(v9\\)";
                case "malformed" -> "(\\d+) malformed";
                default -> throw new IllegalArgumentException(what);
            };
            Matcher m = Pattern.compile(pattern).matcher(summary);
            assertThat(m.find()).as(what + " in " + summary).isTrue();
            return Long.parseLong(m.group(1));
        }
    }

    /**
     * A UDP tee on loopback: every datagram received goes to each target, except that those whose index (0, 1, ... in
     * arrival order) is to be dropped do not go to the first target (siteflow; the reference collector still gets
     * them, so nfdump counts every flow exported); a datagram that carries a template is never dropped (the next
     * data-only one is dropped instead), so that what follows stays decodable.
     */
    private static final class Tee implements AutoCloseable {
        final DatagramSocket socket;
        final List<Integer> targets;
        final Set<Integer> drop;
        final int version;
        final List<Integer> dropped = new ArrayList<>();
        volatile long droppedV5Records;
        private final Thread thread;
        private volatile boolean closed;
        private volatile Throwable failure;

        Tee(List<Integer> targets, Set<Integer> drop, int version) throws SocketException {
            this.socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            this.socket.setReceiveBufferSize(4 << 20);
            this.socket.setSoTimeout(100);
            this.targets = targets;
            this.drop = drop;
            this.version = version;
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
            int owed = 0;
            try (DatagramSocket out = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
                while (!closed || UdpSockets.find(port()).rxQueue() > 0) {
                    DatagramPacket p = new DatagramPacket(buf, buf.length);
                    try {
                        socket.receive(p);
                    } catch (java.net.SocketTimeoutException e) {
                        continue;
                    }
                    if (drop.contains(index)) {
                        owed++;
                    }
                    index++;
                    boolean dropIt = owed > 0 && dataOnly(buf, p.getLength());
                    if (dropIt) {
                        owed--;
                        dropped.add(index - 1);
                        if (version == 5) {
                            droppedV5Records += ((buf[2] & 0xFF) << 8) | (buf[3] & 0xFF);
                        }
                    }
                    for (int t = dropIt ? 1 : 0; t < targets.size(); t++) {
                        out.send(new DatagramPacket(buf, p.getLength(), InetAddress.getLoopbackAddress(),
                                targets.get(t)));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** True for v5, and for a v9/IPFIX datagram whose first set is a data set (templates come first). */
        private boolean dataOnly(byte[] b, int length) {
            if (version == 5) {
                return true;
            }
            int at = version == 9 ? 20 : 16;
            if (length < at + 4) {
                return false;
            }
            int setId = ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
            for (int p = at; p + 4 <= length; ) {
                int id = ((b[p] & 0xFF) << 8) | (b[p + 1] & 0xFF);
                int len = ((b[p + 2] & 0xFF) << 8) | (b[p + 3] & 0xFF);
                if (id < 256 || len < 4) {
                    return false;
                }
                p += len;
            }
            return setId >= 256;
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
