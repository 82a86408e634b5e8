package io.siteflow.systemtest.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.siteflow.agent.app.AgentRunner;
import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.cli.CommandRun;
import io.siteflow.lab.IsolationTraffic;
import io.siteflow.lab.IsolationTraffic.Conversation;
import io.siteflow.lab.LabPrerequisites;
import io.siteflow.lab.LabRecorder;
import io.siteflow.lab.LabTopology;
import io.siteflow.lab.Netns;
import io.siteflow.lab.TrafficLab;
import io.siteflow.lab.TsharkConversations;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.isolation.IsolationEdge;
import io.siteflow.rules.isolation.IsolationEvaluator;
import io.siteflow.rules.isolation.IsolationInputs;
import io.siteflow.rules.isolation.IsolationInputsBuilder;
import io.siteflow.rules.isolation.IsolationJson;
import io.siteflow.rules.isolation.IsolationReport;
import io.siteflow.rules.isolation.NearestAllow;
import io.siteflow.rules.load.SiteModelLoader;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25's lab, live: the traffic lab's two sites in network namespaces (6.5 ms apart through its delay bridge)
 * with a site model whose {@code isolation:} block lets only DB traffic from the application servers to the
 * database cross ({@code lab/isolation-sites.yaml}), and {@link IsolationTraffic}'s injected violations: JMS over T3
 * from wls3 to wls1, T3 from wls4 to the database's port 1521, TNS from an address of region 2 that no {@code hosts}
 * entry names, and an SSH-like connection from wls3 to admin1 opened before the capture began; plus TNS from wls3 to
 * the database, which may cross. The agent captures live on the router's region-2 interface ({@code siteflow capture
 * -i rt-r2 -F 10.1.0.0/16 --json}) while tcpdump writes a pcap of the same interface. The agent's records decided
 * with the site model as {@code siteflow isolation check} decides give exactly the four violating edges (decision,
 * rule, category, L7, groups, the nearest allow rule's failed conditions) and the allowed one, the group pairs they
 * make NOT_ISOLATED, and every edge's packets and IP bytes are tshark's count of the same edge in tcpdump's file
 * ({@link TsharkConversations}); {@code siteflow isolation check --format json} of that file exits 3 with the same
 * report. About half a second of traffic; the whole test takes 5-10 s.
 */
class IsolationLabIT {
    private static final int ROUNDS = 20;
    /** Ethernet II header: tshark counts wire bytes ({@code frame.len}), an edge IP bytes. */
    private static final int ETHERNET_HEADER = 14;
    private static final int LINKTYPE_ETHERNET = 1;
    private static final int TCP = 6;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String AGENT = "region2-edge";

    @TempDir
    Path dir;

    @Test
    void liveLabYieldsExactlyTheInjectedViolationsWithTsharksCounts() throws Exception {
        assumeLabCanRun();
        Path sites = resource("/lab/isolation-sites.yaml", dir.resolve("sites.yaml"));
        Path convLua = Path.of(System.getProperty("siteflow.corpus", "../shared/corpus"), "truth", "conv.lua");
        assertThat(convLua).as("the corpus's tshark counting script").isRegularFile();
        Path pcap = dir.resolve("lab.pcap");

        LiveCapture live = captureTheLab(pcap, convLua);
        IsolationInputs inputs = decide(live.records(), sites);
        Map<String, IsolationEdge> edges = inputs.edges().stream()
                .collect(Collectors.toMap(IsolationEdge::key, e -> e, (a, b) -> {
                    throw new AssertionError("allowed and violating records on one edge: " + a + ", " + b);
                }, TreeMap::new));
        IsolationReport report = IsolationReport.of(inputs);

        assertExactlyTheInjectedEdgesViolate(edges);
        assertTheGroupPairs(report, edges);
        assertTheSshFlowWasSeenWithoutItsHandshake(live.records());
        assertTsharksCounts(edges, TsharkConversations.tcp(pcap, convLua), live.received());
        assertTheCheckOfTcpdumpsFileGivesTheSameReport(pcap, sites, report);
    }

    /** What the agent wrote and received while tcpdump wrote {@code pcap}. */
    private record LiveCapture(List<FlowRecord> records, long received) {
    }

    /**
     * The lab with {@link IsolationTraffic}: the agent ({@code -i rt-r2 -F 10.1.0.0/16 --json}) and tcpdump on the
     * router's region-2 interface, started after the SSH-like connection was opened; stopped once every connection has
     * ended and both hold the same packets. Skips (as the other lab ITs) when tcpdump dropped packets.
     */
    private LiveCapture captureTheLab(Path pcap, Path convLua) throws Exception {
        Path json = dir.resolve("flows.jsonl");
        StringWriter agentErr = new StringWriter();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        long tcpdumpDrops;
        long received;
        String unsettled = null;
        try (TrafficLab lab = TrafficLab.up("isit" + ProcessHandle.current().pid() % 1_000_000,
                TrafficLab.DEFAULT_DELAY_NANOS);
                IsolationTraffic traffic = IsolationTraffic.start(lab, 25)) {
            AgentRunner agent = new AgentRunner(CaptureOptions.builder().iface(lab.agentInterface())
                    .remoteCidr(LabTopology.CIDR_R1).agent(AGENT).json(json.toString())
                    .spoolDir(dir.resolve("spool")).spoolMaxMb(1).build(),
                    new PrintWriter(new StringWriter(), true), new PrintWriter(agentErr, true));
            Future<Integer> capturing = pool.submit(() -> Netns.call(lab.routerNamespace(), agent::run));
            LabRecorder tcpdump = null;
            try {
                await("agent capturing").atMost(Duration.ofSeconds(30))
                        .until(() -> agentErr.toString().contains("capturing on " + lab.agentInterface()));
                tcpdump = LabRecorder.start(lab.routerNamespace(), lab.agentInterface(), pcap);
                traffic.run(ROUNDS);
                // every connection ended (its FINs crossed): wait for the last ACKs (and any retransmission), in
                // the agent and in the file, until the agent has received every frame of the file its -F selects
                // (tcpdump, unfiltered, may also write an ARP exchange) and neither has moved for three polls
                long[] last = {-1, 0};
                try {
                    await("agent and tcpdump received the last ACK").atMost(Duration.ofSeconds(60))
                            .pollInterval(Duration.ofMillis(300)).until(() -> {
                                long now = agent.received();
                                boolean same = now == framesOfR1In(pcap);
                                last[1] = same && now == last[0] ? last[1] + 1 : 0;
                                last[0] = now;
                                return last[1] >= 3;
                            });
                } catch (ConditionTimeoutException e) {
                    unsettled = "after 60 s the agent had received " + agent.received() + " frames, tcpdump's file "
                            + framesOfR1In(pcap) + " that -F selects";
                }
            } finally {
                received = agent.received();
                agent.stop();
                tcpdumpDrops = tcpdump == null ? -1 : tcpdump.stop();
            }
            assertThat(capturing.get(60, TimeUnit.SECONDS)).as(agentErr.toString()).isZero();
            assertThat(traffic.serverFailures()).isZero();
        } finally {
            pool.shutdownNow();
        }
        List<FlowRecord> records = new ArrayList<>();
        for (String line : Files.readAllLines(json)) {
            records.add(FlowRecordJson.parse(line));
        }
        if (unsettled != null) {
            Assertions.fail(unsettled + "\nthe agent's flows:\n" + records.stream()
                    .map(r -> r.src() + ":" + r.srcPort() + " > " + r.dst() + ":" + r.dstPort() + " " + r.packets()
                            + "+" + r.rpackets() + " packets")
                    .collect(Collectors.joining("\n")) + "\ntshark's conversations of tcpdump's file:\n"
                    + TsharkConversations.tcp(pcap, convLua).stream().map(String::valueOf)
                    .collect(Collectors.joining("\n")) + "\nthe agent said:\n" + agentErr);
        }
        Assumptions.assumeTrue(tcpdumpDrops == 0, "tcpdump dropped " + tcpdumpDrops + " packets");
        assertThat(agentErr.toString()).contains(" 0 dropped by kernel");
        assertThat(linkType(pcap)).isEqualTo(LINKTYPE_ETHERNET);
        return new LiveCapture(records, received);
    }

    /** The four injected edges, with their decision, rule and the evidence an auditor reads; the DB edge allowed. */
    private static void assertExactlyTheInjectedEdgesViolate(Map<String, IsolationEdge> edges) {
        assertThat(edges.values().stream().filter(IsolationEdge::violates).map(IsolationLabIT::verdict))
                .containsExactlyInAnyOrder(
                        "10.2.0.20 > 10.1.0.20:8011/6 DENIED no-jms-across JMS t3-jms [app] > [app]",
                        "10.2.0.21 > 10.1.0.10:1521/6 UNLISTED - DB t3 [app] > [db]",
                        "10.2.0.99 > 10.1.0.10:1521/6 UNLISTED - DB oracle-tns [unlisted] > [db]",
                        "10.2.0.20 > 10.1.0.5:22/6 UNLISTED - UNKNOWN unknown [app] > []");
        // the DB traffic that may cross is allowed; nothing else crossed
        assertThat(edges.values().stream().filter(e -> !e.violates()).map(IsolationLabIT::verdict))
                .containsExactly("10.2.0.20 > 10.1.0.10:1521/6 ALLOWED app-db DB oracle-tns [app] > [db]");
        // the nearest allow rule's conditions each violation failed: T3 on 1521 fails app-db only by its L7
        assertThat(nearest(edges, Conversation.T3_ON_DB_PORT)).isEqualTo(List.of("l7: t3 not in [oracle-tns]"));
        assertThat(nearest(edges, Conversation.UNLISTED_TO_DB))
                .isEqualTo(List.of("from: 10.2.0.99 (unlisted) not in [app]"));
        assertThat(nearest(edges, Conversation.JMS_ACROSS)).isEqualTo(List.of("to: 10.1.0.20 (app) not in [db]",
                "categories: JMS not in [DB]", "ports: 8011 not in [1521]", "l7: t3-jms not in [oracle-tns]"));
        assertThat(nearest(edges, Conversation.SSH_RUNNING)).isEqualTo(List.of("to: 10.1.0.5 (no group) not in [db]",
                "categories: UNKNOWN not in [DB]", "ports: 22 not in [1521]", "l7: none detected not in [oracle-tns]"));
    }

    /** app reached app (JMS) and db (T3), unlisted reached db; the SSH edge's server is in no group. */
    private static void assertTheGroupPairs(IsolationReport report, Map<String, IsolationEdge> edges) {
        assertThat(report.pairs().stream().map(p -> p.from() + ">" + p.to() + " " + p.state() + " " + p.violatingBytes()))
                .containsExactly("unlisted>unlisted ISOLATED 0", "unlisted>app ISOLATED 0",
                        "unlisted>db NOT_ISOLATED " + edge(edges, Conversation.UNLISTED_TO_DB).bytes(),
                        "unlisted>(no group) ISOLATED 0",
                        "app>unlisted ISOLATED 0",
                        "app>app NOT_ISOLATED " + edge(edges, Conversation.JMS_ACROSS).bytes(),
                        "app>db NOT_ISOLATED " + edge(edges, Conversation.T3_ON_DB_PORT).bytes(),
                        // admin1 is in no group: the SSH to it has a pair of its own
                        "app>(no group) NOT_ISOLATED " + edge(edges, Conversation.SSH_RUNNING).bytes(),
                        "db>unlisted ISOLATED 0", "db>app ISOLATED 0", "db>db ISOLATED 0", "db>(no group) ISOLATED 0",
                        "(no group)>unlisted ISOLATED 0", "(no group)>app ISOLATED 0", "(no group)>db ISOLATED 0",
                        "(no group)>(no group) ISOLATED 0");
    }

    /**
     * The SSH-like connection ran before the capture: no SYN, no handshake RTT; its client is the one the agent's rule
     * for such flows names (the end on the ephemeral port, the other being on a known service port): wls3.
     */
    private static void assertTheSshFlowWasSeenWithoutItsHandshake(List<FlowRecord> records) {
        List<FlowRecord> ssh = records.stream().filter(r -> r.dstPort() == IsolationTraffic.SSH_PORT
                || r.srcPort() == IsolationTraffic.SSH_PORT).toList();
        assertThat(ssh).isNotEmpty().allSatisfy(r -> {
            assertThat(r.rttMicros()).isNull();
            assertThat((r.tcpFlags() | r.rtcpFlags()) & 0x02).as("SYN").isZero();
            assertThat(r.src()).isEqualTo(Conversation.SSH_RUNNING.client().address());
        });
    }

    /**
     * Every frame tcpdump wrote is in one of tshark's five TCP conversations, and the agent received them all; each
     * edge's packets and IP bytes (both directions) are tshark's count of the same edge.
     */
    private static void assertTsharksCounts(Map<String, IsolationEdge> edges,
                                            List<TsharkConversations.Conversation> tshark, long received) {
        assertThat(tshark).hasSize(Conversation.values().length);
        assertThat(tshark.stream().mapToLong(TsharkConversations.Conversation::frames).sum()).isEqualTo(received);
        for (Conversation c : Conversation.values()) {
            IsolationEdge e = edge(edges, c);
            List<TsharkConversations.Conversation> same = tshark.stream()
                    .filter(t -> t.between(e.client(), e.server(), e.serverPort())).toList();
            long frames = same.stream().mapToLong(TsharkConversations.Conversation::frames).sum();
            long wire = same.stream().mapToLong(TsharkConversations.Conversation::wireBytes).sum();
            assertThat(same).as("%s: tshark conversations", c).hasSize(1);
            assertThat(e.packets()).as("%s packets", c).isEqualTo(frames);
            assertThat(e.bytes()).as("%s IP bytes", c).isEqualTo(wire - ETHERNET_HEADER * frames);
            System.out.printf("IsolationLabIT %s %s: %d packets, %d IP bytes (tshark: %d frames, %d wire bytes)%n",
                    c, e.key(), e.packets(), e.bytes(), frames, wire);
        }
    }

    /**
     * {@code siteflow isolation check} of tcpdump's file, end to end: exit 3 and the JSON report of the live agent's
     * records, times aside (the agent's capture and tcpdump's stamp each packet apart, microseconds apart).
     */
    private static void assertTheCheckOfTcpdumpsFileGivesTheSameReport(Path pcap, Path sites, IsolationReport report)
            throws Exception {
        CommandRun check = CommandRun.of("isolation", "check", pcap.toString(), "--sites", sites.toString(),
                "--format", "json", "--agent", AGENT);
        assertThat(check.exitCode()).as(check.err()).isEqualTo(3);
        JsonNode offline = JSON.readTree(check.out());
        JsonNode live = JSON.readTree(IsolationJson.write(report));
        assertThat(offline.path("violations")).hasSize(4);
        assertThat(withoutTimes(offline)).isEqualTo(withoutTimes(live));
        for (int i = 0; i < 4; i++) {
            for (String time : List.of("firstSeenMs", "lastSeenMs")) {
                assertThat(offline.path("violations").get(i).path(time).asLong()).as("%d %s", i, time)
                        .isCloseTo(live.path("violations").get(i).path(time).asLong(), within(1L));
            }
        }
    }

    /** A report without its period and its violations' first and last seen. */
    private static JsonNode withoutTimes(JsonNode report) {
        ObjectNode copy = report.deepCopy();
        copy.remove(List.of("from", "to"));
        copy.path("violations").forEach(v -> ((ObjectNode) v).remove(List.of("firstSeenMs", "lastSeenMs")));
        return copy;
    }

    /**
     * The agent's records decided as {@code siteflow isolation check} decides a capture's ({@link IsolationInputsBuilder}:
     * classified once, decided by the site model's policy, summed per edge), over the records' period.
     */
    private static IsolationInputs decide(List<FlowRecord> records, Path sites) throws Exception {
        IsolationInputsBuilder builder = new IsolationInputsBuilder(
                new IsolationEvaluator(new Classifier(SiteModelLoader.load(sites).orThrow())));
        records.forEach(builder::add);
        long from = records.stream().mapToLong(FlowRecord::start).min().orElse(0);
        long to = records.stream().mapToLong(r -> r.end() + 1).max().orElse(0);
        return builder.build(from, to, List.of());
    }

    private static IsolationEdge edge(Map<String, IsolationEdge> edges, Conversation c) {
        IsolationEdge e = edges.get(IsolationEdge.key(c.client().address(), c.server().address(), c.port(), TCP));
        assertThat(e).as("edge of %s in %s", c, edges.keySet()).isNotNull();
        return e;
    }

    /** The conditions of the nearest allow rule, {@code app-db}, that the edge failed. */
    private static List<String> nearest(Map<String, IsolationEdge> edges, Conversation c) {
        NearestAllow n = edge(edges, c).nearestAllow().orElseThrow();
        assertThat(n.rule()).isEqualTo("app-db");
        return n.failed();
    }

    private static String verdict(IsolationEdge e) {
        return e.client() + " > " + e.server() + ":" + e.serverPort() + "/" + e.proto() + " " + e.decision() + " "
                + (e.rule().isEmpty() ? "-" : e.rule()) + " " + e.category() + " " + e.l7() + " " + e.fromGroups()
                + " > " + e.toGroups();
    }

    /** Skips where the lab cannot run (not root, no {@code ip netns}); fails there under CI. */
    private static void assumeLabCanRun() {
        Optional<String> missing = LabPrerequisites.missing();
        if (missing.isPresent() && "true".equals(System.getenv("CI"))) {
            Assertions.fail(missing.get() + " (CI=true: the lab must run)");
        }
        Assumptions.assumeTrue(missing.isEmpty(), missing.orElse(""));
    }

    /** The packet records of a classic pcap file written so far (a record cut short at the end left out). */
    /** The Ethernet frames of the file carrying IPv4 to or from 10.1.0.0/16: what the agent's {@code -F} selects. */
    private static long framesOfR1In(Path pcap) throws Exception {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(Files.readAllBytes(pcap)).order(java.nio.ByteOrder.nativeOrder());
        long frames = 0;
        for (int at = 24; at + 16 <= b.limit(); ) {
            int caplen = b.getInt(at + 8);
            int f = at + 16;
            at = f + caplen;
            if (at > b.limit()) {
                break;
            }
            if (caplen < 34) {
                continue; // too short for an IPv4 header
            }
            boolean ipv4 = (b.get(f + 12) & 0xFF) == 0x08 && b.get(f + 13) == 0;
            boolean src = (b.get(f + 26) & 0xFF) == 10 && b.get(f + 27) == 1;
            boolean dst = (b.get(f + 30) & 0xFF) == 10 && b.get(f + 31) == 1;
            if (ipv4 && (src || dst)) {
                frames++;
            }
        }
        return frames;
    }

    private static int linkType(Path pcap) throws Exception {
        byte[] header = Files.readAllBytes(pcap);
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(header).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        if (b.getInt(0) != 0xa1b2c3d4 && b.getInt(0) != 0xa1b23c4d) {
            b.order(java.nio.ByteOrder.BIG_ENDIAN);
        }
        return b.getInt(20) & 0xFFFF;
    }

    private static Path resource(String name, Path to) throws Exception {
        try (InputStream in = IsolationLabIT.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            Files.copy(in, to);
        }
        return to;
    }
}
