package io.siteflow.systemtest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.agent.app.CollectMain;
import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.cli.CommandRun;
import io.siteflow.cli.collect.PmacctdExport;
import io.siteflow.model.wire.Heartbeat;
import io.siteflow.processor.http.ApiServer;
import io.siteflow.synth.CapturePoint;
import io.siteflow.synth.StretchedClusterScenario;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exported flows judged end to end by real parts: Debian's {@code pmacctd} with the {@code nfprobe} plugin reads a
 * 60 s region-edge capture traffic-synth writes ({@link #writeCapture}: dated a little ahead) and exports it as
 * NetFlow v5 through a UDP tee ({@link V5Tee}) to
 * {@code siteflow collect --bootstrap ... --json=FILE} (a child JVM, SIGTERM by PID, exit 0) on an embedded KRaft
 * broker; a real {@code siteflow process} consumes. {@code GET /api/verdicts} then answers exactly the verdicts of
 * {@code siteflow audit} of the JSON lines the collector wrote. With three datagrams dropped in the tee, the
 * collector's heartbeat counts exactly the records of the dropped datagrams as lost ({@code exportRecordsLost}, from
 * the v5 sequence numbers) and every pair it observes is INSUFFICIENT at the API, with the same bytes as the audit
 * (which cannot know of the loss).
 */
class ExportedFlowsMatchAuditIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LISTENING = Pattern.compile("collecting on udp 127\\.0\\.0\\.1:(\\d+)");
    private static final Duration GUARD = Duration.ofSeconds(120);

    @TempDir
    static Path dir;
    static Path sites;

    @BeforeAll
    static void copySites() throws Exception {
        sites = Files.copy(Path.of(System.getProperty("siteflow.root", "..")).resolve("deploy/conf/sites.yaml"),
                dir.resolve("sites.yaml"));
    }

    /**
     * The capture pmacctd reads, dated from 60 s ahead: NetFlow v5 dates a flow by the exporter's uptime (32-bit ms),
     * and pmacctd reading a file takes its boot time from the clock and the flow times from the file, so a file
     * dated before pmacctd started wraps the uptime and its flows come out weeks ahead (seen: 23.7 days for a file
     * dated a year back; the processor sends them to the dead-letter topic as too far ahead, {@code ClockSkew}).
     * Dated after pmacctd's start, the records carry the file's own times, at most 2 min ahead of the clock (the
     * processor takes 5 min).
     */
    private static Path writeCapture(Path run) throws Exception {
        Path capture = run.resolve("region2-edge.pcap");
        StretchedClusterScenario.builder().capturePoint(CapturePoint.regionEdge("region2", 0))
                .start(Instant.now().plusSeconds(60)).duration(Duration.ofSeconds(60)).build().write(capture);
        return capture;
    }

    @Test
    void verdictsAtTheApiEqualTheAuditOfTheCollectedJson() throws Exception {
        Run run = collectAndProcess("it-export", Set.of());

        assertThat(run.tee.droppedRecords()).isZero();
        assertThat(run.heartbeat.export().recordsLost()).isZero();
        assertThat(run.api).isEqualTo(Offline.list(run.audit.get("verdicts")));
        assertThat(run.api).extracting(v -> v.get("verdict").asText()).doesNotContain("INSUFFICIENT");
        assertThat(run.api).allSatisfy(v -> assertThat(v.get("crossBytes").asLong()).isPositive());
    }

    @Test
    void datagramsDroppedOnTheWayMakeThePairsInsufficientAndTheLossIsCountedExactly() throws Exception {
        Run run = collectAndProcess("it-export-lossy", Set.of(10, 20, 21));

        assertThat(run.tee.dropped()).containsExactly(10, 20, 21);
        assertThat(run.tee.droppedRecords()).isPositive();
        assertThat(run.heartbeat.export().recordsLost()).isEqualTo(run.tee.droppedRecords());
        assertThat(run.heartbeat.export().records()).isEqualTo(run.tee.forwardedRecords());
        List<JsonNode> audit = Offline.list(run.audit.get("verdicts"));
        assertThat(run.api).hasSameSizeAs(audit).isNotEmpty();
        for (int i = 0; i < audit.size(); i++) {
            JsonNode streamed = run.api.get(i);
            assertThat(audit.get(i).get("verdict").asText()).isNotEqualTo("INSUFFICIENT");
            assertThat(streamed.get("verdict").asText()).isEqualTo("INSUFFICIENT");
            assertThat(streamed.get("reason").asText()).isEqualTo("the observer dropped more than 0.1% of packets");
            for (String field : List.of("server", "remoteSite", "crossBytes", "categories", "addresses")) {
                assertThat(streamed.get(field)).as(field).isEqualTo(audit.get(i).get(field));
            }
        }
    }

    /**
     * One export through the tee into a collector writing Kafka and JSON lines, a processor on its own broker, the
     * collector's last heartbeat once it has read every forwarded record, the offline audit of its JSON lines and
     * the API's verdicts once the processor has every record.
     */
    private Run collectAndProcess(String app, Set<Integer> drop) throws Exception {
        Path run = Files.createDirectories(dir.resolve(app));
        Path json = run.resolve("flows.jsonl");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(run.resolve("kafka")).build()) {
            broker.start();
            try (InProcessProcessor p = InProcessProcessor.start(broker.bootstrap(), sites, run.resolve("state"), app);
                 ApiServer api = new ApiServer(ApiServer.Settings.loopback(0), p.runtime().queries(), Optional.empty(),
                         () -> "", p.runtime().whatIf()).start()) {
                Path log = run.resolve("collect.log");
                Process collect = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx256m", "-cp", System.getProperty("java.class.path"), CollectMain.class.getName(),
                        "--listen", "127.0.0.1:0", "--json=" + json, "--bootstrap", broker.bootstrap(), "--agent",
                        "edge-b", "--spool-dir", run.resolve("spool").toString()).redirectErrorStream(true)
                        .redirectOutput(log.toFile()).start();
                try {
                    int port = Awaitility.await().atMost(GUARD).until(() -> listeningPort(collect, log), n -> n > 0);
                    V5Tee tee = new V5Tee(port, drop);
                    try {
                        PmacctdExport.export(run, writeCapture(run), tee.port(), 5);
                    } finally {
                        tee.close();
                    }
                    Heartbeat last = heartbeatAfterEveryRecord(broker.bootstrap(), tee.forwardedRecords());
                    stop(collect, log);
                    CommandRun audit = CommandRun.of("audit", json.toString(), "--sites", sites.toString(),
                            "--format", "json");
                    assertThat(audit.exitCode()).as(audit.err()).isZero();
                    JsonNode report = JSON.readTree(audit.out());
                    int pairs = report.get("verdicts").size();
                    assertThat(pairs).isGreaterThanOrEqualTo(2);
                    // every record is in once the API's bytes are the audit's (the lossy run's outcomes differ)
                    List<JsonNode> verdicts = Awaitility.await().atMost(GUARD).ignoreExceptions().until(
                            () -> verdicts(api), v -> v.size() == pairs && crossBytes(v).equals(crossBytes(
                                    Offline.list(report.get("verdicts")))));
                    System.out.printf("%s: tee dropped datagrams %s (%d records), forwarded %d records; last "
                            + "heartbeat %s%n%s", app, tee.dropped(), tee.droppedRecords(), tee.forwardedRecords(),
                            new String(last.toJson(), StandardCharsets.UTF_8), Files.readString(log));
                    return new Run(tee, last, report, verdicts);
                } finally {
                    collect.destroyForcibly();
                }
            }
        }
    }

    /** The collector's heartbeat once it says it decoded every record the tee forwarded (one comes every 10 s). */
    private static Heartbeat heartbeatAfterEveryRecord(String bootstrap, long forwarded) {
        List<Heartbeat> seen = new ArrayList<>();
        Topics.read(bootstrap, io.siteflow.model.wire.Topics.AGENTS, got -> {
            seen.clear();
            got.forEach(r -> Heartbeat.parse(new String(r.value(), StandardCharsets.UTF_8)).ifPresent(seen::add));
            return !seen.isEmpty() && seen.get(seen.size() - 1).export() != null
                    && seen.get(seen.size() - 1).export().records() == forwarded;
        });
        Heartbeat last = seen.get(seen.size() - 1);
        assertThat(last.agent()).isEqualTo("edge-b");
        return last;
    }

    /** SIGTERM by PID: the collector flushes every held conversation to Kafka and the JSON lines, and exits 0. */
    private static void stop(Process collect, Path log) throws Exception {
        Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(collect.pid())).inheritIO().start();
        assertThat(kill.waitFor(GUARD.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(collect.waitFor(GUARD.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(collect.exitValue()).as(Files.readString(log)).isZero();
    }

    private static int listeningPort(Process collect, Path log) throws Exception {
        Matcher m = LISTENING.matcher(Files.readString(log));
        if (m.find()) {
            return Integer.parseInt(m.group(1));
        }
        if (!collect.isAlive()) {
            throw new AssertionError("siteflow collect ended before it listened: " + Files.readString(log));
        }
        return 0;
    }

    private static List<JsonNode> verdicts(ApiServer api) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(api.url() + "/api/verdicts")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Offline.list(JSON.readTree(r.body()));
    }

    private static List<String> crossBytes(List<JsonNode> verdicts) {
        return verdicts.stream().map(v -> v.get("server").asText() + " " + v.get("remoteSite").asText() + " "
                + v.get("crossBytes").asLong()).toList();
    }

    private record Run(V5Tee tee, Heartbeat heartbeat, JsonNode audit, List<JsonNode> api) {
    }
}
