package io.siteflow.lab.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.siteflow.agent.app.AgentRunner;
import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.lab.NetnsLab;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code siteflow capture -i IFACE --workers 2} (two sockets in one PACKET_FANOUT hash group) next to
 * {@code --workers 1} on the same veth, inside network namespaces the test creates, during the same traffic
 * (TCP connections, so both directions, and many UDP flows): the two-worker records, summed per flow, are exactly
 * the one-worker records; every flow's records come from one worker; both workers took a share; the end-of-run
 * line gives each worker's counters, and they add up to the total.
 */
class WorkersLiveIT {
    private static final Pattern WORKER_LINE = Pattern.compile(
            "  worker (\\d): (\\d+) packets received, (\\d+) dropped by kernel, (\\d+) dropped by interface, "
                    + "(\\d+) dropped by the agent");
    private static final Pattern TOTAL_LINE = Pattern.compile("sfa0: (\\d+) packets received, 0 dropped by kernel, "
            + "0 dropped by interface, 0 dropped by the agent");
    private static final Pattern WORKER_ID = Pattern.compile("-w(\\d+)-\\d+$");
    private static final int UDP_FLOWS = 300;
    private static final int TCP_CONNECTIONS = 12;

    @TempDir
    Path dir;

    @Test
    void twoWorkersRecordExactlyWhatOneDoesAndNeverSplitAFlow() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (NetnsLab lab = NetnsLab.create().offloadsOff()) {
            LabTraffic traffic = LabTraffic.to(lab, lab.addressA());
            Tcpdump tcpdump = Tcpdump.start(lab, lab.nsA(), NetnsLab.IF_A, dir, "");
            Agent one = Agent.start(lab, pool, dir.resolve("one.jsonl"), 1);
            Agent two = Agent.start(lab, pool, dir.resolve("two.jsonl"), 2);
            try {
                one.awaitCapturing();
                two.awaitCapturing();
                for (int i = 0; i < TCP_CONNECTIONS; i++) {
                    assertThat(traffic.tcp(40_000 + 1_000L * i)).isEqualTo(40_000 + 1_000L * i);
                }
                udpFlows(lab, traffic);
                byte[] marker = LabTraffic.newMarker("workers-end");
                traffic.marker(lab.addressB(), marker);
                await("tcpdump wrote the marker").atMost(Duration.ofSeconds(20))
                        .until(() -> tcpdump.packets().stream().anyMatch(p -> p.contains(marker)));
                int captured = tcpdump.packets().size();
                await("both agents saw every packet").atMost(Duration.ofSeconds(20))
                        .until(() -> one.runner.received() >= captured && two.runner.received() >= captured);
            } finally {
                one.runner.stop();
                two.runner.stop();
                traffic.close();
                tcpdump.stop();
            }
            assertThat(one.exit.get(60, TimeUnit.SECONDS)).as(one.err.toString()).isZero();
            assertThat(two.exit.get(60, TimeUnit.SECONDS)).as(two.err.toString()).isZero();

            List<FlowRecord> oneRecords = one.records();
            List<FlowRecord> twoRecords = two.records();
            assertThat(byFlow(twoRecords)).isEqualTo(byFlow(oneRecords));
            // B's kernel may hand a closed socket's source port to a later one: fewer flows than sockets
            assertThat(byFlow(oneRecords).size()).isGreaterThan(UDP_FLOWS / 2 + TCP_CONNECTIONS);
            workersByFlow(twoRecords).forEach((flow, workers) -> assertThat(workers).as(flow).hasSize(1));
            assertThat(new TreeSet<>(workersByFlow(twoRecords).values().stream().flatMap(Set::stream).toList()))
                    .containsExactly(0, 1);
            assertWorkerLinesAddUp(two.err.toString());
        } finally {
            pool.shutdownNow();
        }
    }

    /** UDP_FLOWS flows from B to A, each from its own source port, 1 to 4 datagrams each. */
    private static void udpFlows(NetnsLab lab, LabTraffic traffic) throws Exception {
        DatagramSocket sink = lab.call(lab.nsA(), () -> new DatagramSocket(new InetSocketAddress(lab.addressA(), 0)));
        try (sink) {
            InetSocketAddress to = new InetSocketAddress(lab.addressA(), sink.getLocalPort());
            for (int i = 0; i < UDP_FLOWS; i++) {
                try (DatagramSocket s = lab.call(lab.nsB(),
                        () -> new DatagramSocket(new InetSocketAddress(lab.addressB(), 0)))) {
                    for (int k = 0; k <= i % 4; k++) {
                        s.send(new DatagramPacket(new byte[100 + i], 100 + i, to));
                    }
                }
            }
        }
    }

    private static void assertWorkerLinesAddUp(String err) {
        Matcher total = TOTAL_LINE.matcher(err);
        assertThat(total.find()).as(err).isTrue();
        long received = 0;
        List<Integer> workers = new ArrayList<>();
        Matcher m = WORKER_LINE.matcher(err);
        while (m.find()) {
            workers.add(Integer.parseInt(m.group(1)));
            assertThat(Long.parseLong(m.group(2))).as(m.group()).isPositive();
            assertThat(m.group(3) + m.group(4) + m.group(5)).as(m.group()).isEqualTo("000");
            received += Long.parseLong(m.group(2));
        }
        assertThat(workers).as(err).containsExactly(0, 1);
        assertThat(received).isEqualTo(Long.parseLong(total.group(1)));
    }

    /** Per flow (protocol, initiator, responder): packets, bytes and frame bytes of each direction, summed. */
    private static Map<String, List<Long>> byFlow(List<FlowRecord> records) {
        Map<String, long[]> sums = new TreeMap<>();
        for (FlowRecord r : records) {
            long[] s = sums.computeIfAbsent(flow(r), k -> new long[6]);
            s[0] += r.packets();
            s[1] += r.rpackets();
            s[2] += r.bytes();
            s[3] += r.rbytes();
            s[4] += r.frameBytes();
            s[5] += r.rframeBytes();
        }
        Map<String, List<Long>> out = new TreeMap<>();
        sums.forEach((k, v) -> out.put(k, java.util.Arrays.stream(v).boxed().toList()));
        return out;
    }

    private static Map<String, Set<Integer>> workersByFlow(List<FlowRecord> records) {
        Map<String, Set<Integer>> m = new TreeMap<>();
        for (FlowRecord r : records) {
            Matcher w = WORKER_ID.matcher(r.id());
            assertThat(w.find()).as(r.id()).isTrue();
            m.computeIfAbsent(flow(r), k -> new TreeSet<>()).add(Integer.parseInt(w.group(1)));
        }
        return m;
    }

    private static String flow(FlowRecord r) {
        return r.proto() + " " + r.src() + ":" + r.srcPort() + " " + r.dst() + ":" + r.dstPort();
    }

    /** One agent run on the lab's interface A, writing JSON lines. */
    private record Agent(AgentRunner runner, StringWriter err, Future<Integer> exit, Path json) {
        static Agent start(NetnsLab lab, ExecutorService pool, Path json, int workers) {
            CaptureOptions o = CaptureOptions.builder().iface(NetnsLab.IF_A).agent("workers-it").backend("pcap")
                    .json(json.toString()).workers(workers).spoolDir(Path.of("/nonexistent-spool")).spoolMaxMb(1)
                    .build();
            StringWriter err = new StringWriter();
            AgentRunner runner = new AgentRunner(o, new PrintWriter(new StringWriter(), true),
                    new PrintWriter(err, true));
            return new Agent(runner, err, pool.submit(() -> lab.call(lab.nsA(), runner::run)), json);
        }

        void awaitCapturing() {
            await("capturing").atMost(Duration.ofSeconds(20)).until(() -> err.toString().contains("capturing on sfa0"));
        }

        List<FlowRecord> records() throws Exception {
            List<FlowRecord> out = new ArrayList<>();
            for (String line : Files.readAllLines(json)) {
                out.add(FlowRecordJson.parse(line));
            }
            return out;
        }
    }
}
