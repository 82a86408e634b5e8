package io.siteflow.systemtest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.cli.CommandRun;
import io.siteflow.model.FlowRecord;
import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.processor.http.ApiServer;
import io.siteflow.synth.CapturePoint;
import io.siteflow.synth.StretchedClusterScenario;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A synthesised stretched-cluster capture (region-2 edge, 150 s: DB, T3, JMS, Coherence, admin, DNS) replayed
 * by {@code siteflow capture -r FILE -F 10.1.0.0/16 --bootstrap ...} (the region-2 edge agent as deployed:
 * the remote site's CIDR given, records keyed by the local server) into a running {@code siteflow process} gives the verdict
 * JSON of {@code siteflow audit FILE --format json}, exactly: cumulative verdicts from the processor's stores
 * (what {@code GET /api/verdicts} serves) and window verdicts from {@code siteflow.verdicts}.
 *
 * <p>The stream closes a window when its task's stream time passes the window's end plus the 10 s grace;
 * stream time moves only with records. After the replay's last record the last window stays open, so once
 * the cumulative verdicts have been compared the test sends one small closing record per audited server, one
 * window plus grace after the capture's last window; the windows of the capture then all close and are
 * compared with the audit's. (The closing records are added after the cumulative comparison, so they change
 * nothing that was compared; their own window stays open.) A second case replays without {@code -F}: see
 * {@link #replayWithoutRemoteCidrsGivesTheSameVerdictsWithTheDefaultGrace()}; there {@code /api/whatif} is also
 * compared with {@code siteflow whatif --json} on the same capture. In both, {@code /api/isolation} is compared with
 * {@code siteflow isolation check --format json} of the capture.
 */
class ReplayMatchesAuditIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> AUDITED = List.of("10.2.0.20", "10.2.0.21");

    @TempDir
    static Path dir;
    static Path capture;
    static Path sites;
    static JsonNode report;

    @BeforeAll
    static void captureAndAudit() throws Exception {
        capture = dir.resolve("stretched.pcap");
        StretchedClusterScenario.builder().duration(Duration.ofSeconds(150))
                .capturePoint(CapturePoint.regionEdge("region2", 75_000)).build().write(capture);
        sites = Files.copy(Path.of(System.getProperty("siteflow.root", "..")).resolve("deploy/conf/sites.yaml"),
                dir.resolve("sites.yaml"));
        CommandRun audit = CommandRun.of("audit", capture.toString(), "--sites", sites.toString(), "--format", "json");
        assertThat(audit.exitCode()).as(audit.err()).isZero();
        report = JSON.readTree(audit.out());
        assertThat(report.get("windows").size()).isGreaterThanOrEqualTo(6);
    }

    @Test
    void replayedCaptureGivesTheOfflineAuditsVerdictsExactly() throws Exception {
        replayAndCompare("it-replay", List.of("-F", "10.1.0.0/16"), List.of(), Duration.ofSeconds(10));
    }

    /**
     * Without {@code -F} a file's records are keyed by the agent id (FlowKeys.forCapture), so they stay in one
     * partition in export order and reach each server's audit in that order, with the default grace. (Keyed by
     * initiator, as until 2026-11-30, one server's records came from several partitions far out of time order at
     * replay speed, and the windows needed a grace as long as the capture.)
     */
    @Test
    void replayWithoutRemoteCidrsGivesTheSameVerdictsWithTheDefaultGrace() throws Exception {
        replayAndCompare("it-replay-no-f", List.of(), List.of(), Duration.ofSeconds(10));
    }

    private void replayAndCompare(String app, List<String> captureArgs, List<String> processArgs, Duration grace)
            throws Exception {
        Path run = Files.createDirectories(dir.resolve(app));
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(run.resolve("kafka")).build()) {
            broker.start();
            try (InProcessProcessor p = InProcessProcessor.start(broker.bootstrap(), sites, run.resolve("state"),
                    app, processArgs.toArray(String[]::new))) {
                List<String> args = new ArrayList<>(List.of("capture", "-r", capture.toString()));
                args.addAll(captureArgs);
                args.addAll(List.of("--bootstrap", broker.bootstrap(), "--agent", "edge-b", "--spool-dir",
                        run.resolve("spool").toString()));
                CommandRun replay = CommandRun.of(args.toArray(String[]::new));
                assertThat(replay.exitCode()).as(replay.err()).isZero();
                if (captureArgs.isEmpty()) {
                    assertWhatIfMatches(p);
                }

                Awaitility.await().atMost(Topics.WAIT).ignoreExceptions().untilAsserted(() -> assertThat(
                        Offline.nodes(p.cumulativeVerdicts())).isEqualTo(Offline.list(report.get("verdicts"))));
                List<JsonNode> cumulative = Offline.nodes(p.cumulativeVerdicts());
                for (int i = 0; i < cumulative.size(); i++) {
                    assertSameFigures(cumulative.get(i), report.get("verdicts").get(i));
                }
                assertIsolationMatches(p);

                Topics.send(broker.bootstrap(), closers(report, grace));
                List<JsonNode> windows = Offline.nodes(Offline.sorted(Topics.windowVerdicts(broker.bootstrap(),
                        report.get("windows").size())));
                assertThat(windows).isEqualTo(Offline.list(report.get("windows")));
            }
        }
    }

    /**
     * {@code GET /api/whatif?server=wls3&site=region1}, served over the processor's real runtime (from the what-if
     * stage's stores), answers exactly what {@code siteflow whatif --json} prints for the same capture (before the
     * closing records are sent: they are records of the topic too).
     */
    private static void assertWhatIfMatches(InProcessProcessor p) throws Exception {
        CommandRun offline = CommandRun.of("whatif", "--sites", sites.toString(), "--move", "wls3=region1", "--json",
                capture.toString());
        assertThat(offline.exitCode()).as(offline.err()).isZero();
        JsonNode expected = JSON.readTree(offline.out());
        assertThat(expected.at("/dbCalls/stopPaying").asLong()).isPositive();
        assertThat(expected.at("/becomeLocal/flows").asLong()).isPositive();
        try (ApiServer api = new ApiServer(ApiServer.Settings.loopback(0), p.runtime().queries(), Optional.empty(),
                () -> "", p.runtime().whatIf()).start()) {
            // the what-if stage's stores hold what its task committed, which may follow the audit's by a commit
            Awaitility.await().atMost(Topics.WAIT).untilAsserted(() -> {
                HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(api.url() + "/api/whatif?server=wls3&site=region1")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                assertThat(r.body() + "\n").isEqualTo(offline.out());
            });
        }
    }

    /**
     * {@code GET /api/isolation} for the capture's period, served over the processor's real runtime, answers exactly
     * what {@code siteflow isolation check --format json} prints for the same capture (the sample model's policy:
     * JMS across the regions DENIED, DNS to an unlisted server UNLISTED), before the closing records are sent.
     */
    private static void assertIsolationMatches(InProcessProcessor p) throws Exception {
        CommandRun offline = CommandRun.of("isolation", "check", capture.toString(), "--sites", sites.toString(),
                "--format", "json", "--agent", "edge-b");
        assertThat(offline.exitCode()).as(offline.err()).isEqualTo(3);
        JsonNode expected = JSON.readTree(offline.out());
        assertThat(expected.get("violations")).extracting(v -> v.get("decision").asText() + " " + v.get("rule").asText()
                + " " + v.get("serverPort").asInt()).contains("DENIED no-jms-across 8011", "UNLISTED  53");
        try (ApiServer api = new ApiServer(ApiServer.Settings.loopback(0), p.runtime().queries(), Optional.empty(),
                () -> "", p.runtime().whatIf()).start()) {
            Awaitility.await().atMost(Topics.WAIT).untilAsserted(() -> {
                HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(api.url()
                        + "/api/isolation?from=" + expected.get("from").asLong() + "&to=" + expected.get("to").asLong()))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                assertThat(JSON.readTree(r.body())).isEqualTo(expected);
            });
        }
    }

    /** The figures the issue names, one by one (the whole-JSON comparison above covers the rest). */
    private static void assertSameFigures(JsonNode streamed, JsonNode offline) {
        for (String field : List.of("server", "verdict", "dbShare", "crossBytes", "categories", "addresses", "dbCalls")) {
            assertThat(streamed.get(field)).as(field).isEqualTo(offline.get(field));
        }
        assertThat(streamed.get("crossBytes").asLong()).isPositive();
        assertThat(streamed.get("dbCalls").get("calls").asLong()).isPositive();
    }

    /** One DB record per audited server, one window plus grace after the end of the capture's last window. */
    private static List<FlowRecord> closers(JsonNode report, Duration grace) {
        long lastStart = 0;
        for (JsonNode w : report.get("windows")) {
            lastStart = Math.max(lastStart, w.get("window").get("start").asLong());
        }
        long at = lastStart + 60_000 + 60_000 + grace.toMillis();
        List<FlowRecord> out = new ArrayList<>();
        for (String server : AUDITED) {
            out.add(FlowRecord.builder().id("closer-" + server).agent("edge-b").iface("eth0").time(at, at)
                    .endpoints(6, server, 39_999, "10.1.0.10", 1521).forward(100, 1, 114, 0x18).build());
        }
        return out;
    }
}
