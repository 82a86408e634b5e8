package io.siteflow.systemtest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import io.siteflow.model.FlowRecord;
import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.processor.http.ApiJson;
import io.siteflow.synth.SyntheticCluster;
import io.siteflow.rules.audit.AuditReport;
import io.siteflow.rules.verdict.Verdict;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three {@code siteflow process} instances in child JVMs with one standby per task; records stream in for three
 * servers; the instance owning the most servers is killed with SIGKILL mid-stream. A poller asks a surviving
 * instance for {@code /api/verdicts} every 100 ms throughout. Shown: the dead instance's tasks resume on the
 * survivor that held their standby, from the standby's copy (kept: siteflow's transactional state stores; without
 * them Kafka Streams 4.4 under exactly-once throws it away and restores the task from its changelogs' start); the
 * totals at the end equal the offline audit; every answer about a server is either a number its records really
 * summed to (never the empty or mixed state of a store that lacks the key) or a 503 saying its owner is moving;
 * every server has a number again at the end. Measured and printed, not asserted (docs/OPERATIONS.md "Processors on
 * several hosts"): the longest span without a number per server.
 */
class ThreeProcessorsKillIT {
    private static final int COUNT = 20_000;
    private static final int RATE = 500;
    private static final long STEP_MS = 50;
    private static final int WARM_UP = 600;
    /** Records the survivors-to-be must have committed after the warm-up before the kill. */
    private static final int KILL_AFTER = 2_000;
    /** How soon the group notices the dead instance (the default is 45 s; the gap grows by the difference). */
    private static final int SESSION_MS = 10_000;
    private static final String APP = "it-three";

    @TempDir
    Path dir;

    @Test
    void survivorsTakeOverFromStandbysWithExactTotalsAndSayWhichServersAreMoving() throws Exception {
        List<FlowRecord> records = SyntheticCluster.flows(COUNT, STEP_MS, "three");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).build()) {
            broker.start();
            String bootstrap = broker.bootstrap();
            Path sites = Files.writeString(dir.resolve("sites.yaml"), SyntheticCluster.SITES);
            List<ProcessorNode> nodes = new ArrayList<>();
            try (ProcessorNode a = start(bootstrap, sites, 0, nodes); ProcessorNode b = start(bootstrap, sites, 1, nodes);
                    ProcessorNode c = start(bootstrap, sites, 2, nodes)) {
                Awaitility.await().atMost(Topics.WAIT).ignoreExceptions().until(() -> nodes.stream().allMatch(ProcessorNode::up));
                Topics.send(bootstrap, records.subList(0, WARM_UP));
                Awaitility.await().atMost(Topics.WAIT).until(() -> Topics.committed(bootstrap, APP) >= WARM_UP);
                Map<String, TaskPlacement.Owner> owners = Awaitility.await().atMost(Topics.WAIT).ignoreExceptions()
                        .until(() -> TaskPlacement.owners(nodes), o -> o.size() == SyntheticCluster.SERVERS.size());
                ProcessorNode victim = TaskPlacement.victim(owners);
                ProcessorNode target = nodes.stream().filter(n -> n != victim).findFirst().orElseThrow();
                Map<String, TaskPlacement.Owner> moved = new TreeMap<>(owners);
                moved.values().removeIf(o -> o.node() != victim);
                // the survivor that keeps a standby of each task that will move
                Map<String, ProcessorNode> standbys = Awaitility.await().atMost(Topics.WAIT).ignoreExceptions()
                        .until(() -> TaskPlacement.standbys(nodes, victim, moved), s -> s.size() == moved.size());

                try (VerdictPoller poller = VerdictPoller.start(target.url(), SyntheticCluster.SERVERS);
                        PacedProducer producer = PacedProducer.start(bootstrap, records.subList(WARM_UP, COUNT), RATE)) {
                    Awaitility.await().atMost(Topics.WAIT).until(() -> Topics.committed(bootstrap, APP) >= WARM_UP + KILL_AFTER);
                    long killedAt = System.currentTimeMillis();
                    victim.child().kill();
                    assertThat(producer.sent()).as("records still coming at the kill").isLessThan(COUNT - WARM_UP);

                    Awaitility.await().atMost(Topics.WAIT).until(producer::done);
                    Awaitility.await().atMost(Topics.WAIT).untilAsserted(() -> assertThat(
                            Topics.committed(bootstrap, APP)).as("committed").isEqualTo(Topics.flowsEnd(bootstrap)));
                    AuditReport expected = Offline.audit(SyntheticCluster.SITES, records, 60_000);
                    Awaitility.await().atMost(Topics.WAIT).ignoreExceptions().untilAsserted(() -> assertThat(
                            Offline.json(cumulative(target))).containsExactlyElementsOf(Offline.json(expected.verdicts())));
                    long exactAt = System.currentTimeMillis();
                    Awaitility.await().atMost(Topics.WAIT).until(() -> SyntheticCluster.SERVERS.stream().allMatch(s ->
                            poller.samples(s).stream().anyMatch(x -> x.atMs() > exactAt + 500)));
                    poller.close();

                    assertThat(poller.failures()).as("answers neither a number nor a 503 with a reason").isEmpty();
                    new AnswerCheck(records, killedAt, moved.keySet()).verify(poller);
                    for (String s : SyntheticCluster.SERVERS) {
                        System.out.printf("ThreeProcessorsKillIT: %s%s: longest span without a number %d ms%n", s,
                                moved.containsKey(s) ? " (its owner was killed)" : "", poller.longestGapMs(s));
                    }
                    TaskPlacement.verifyTakeover(bootstrap, APP, nodes, victim, moved, standbys);
                }
            }
        }
    }

    private ProcessorNode start(String bootstrap, Path sites, int i, List<ProcessorNode> nodes) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        ProcessorNode n = new ProcessorNode(i, port, ChildProcessor.start(bootstrap, sites, dir.resolve("state-" + i), APP,
                ChildProcessor.logFile("ThreeProcessorsKillIT-" + i), port, "--kafka", "session.timeout.ms=" + SESSION_MS));
        nodes.add(n);
        return n;
    }

    /** {@code GET /api/verdicts} of {@code node}, which must answer 200. */
    private static List<Verdict> cumulative(ProcessorNode node) throws Exception {
        HttpResponse<String> r = ProcessorNode.get(node.url() + "/api/verdicts");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return ApiJson.readList(r.body(), new TypeReference<List<Verdict>>() { });
    }

    /** One child processor serving HTTP on 127.0.0.1:{@code port}. */
    record ProcessorNode(int index, int port, ChildProcessor child) implements AutoCloseable {
        private static final HttpClient HTTP = HttpClient.newHttpClient();

        String url() {
            return "http://127.0.0.1:" + port;
        }

        boolean up() {
            assertThat(child.alive()).as(child::tail).isTrue();
            return get(url() + "/health").statusCode() == 200;
        }

        static HttpResponse<String> get(String url) {
            try {
                return HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(url + ": " + e, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(url + ": interrupted", e);
            }
        }

        @Override
        public void close() throws InterruptedException {
            child.close();
        }

        @Override
        public String toString() {
            return "instance " + index + " (" + url() + ")";
        }
    }

    /** Shared by the checks: the partition count of the siteflow topics the processors create. */
    static final int PARTITIONS = 3;
}
