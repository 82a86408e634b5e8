package io.siteflow.processor.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.siteflow.processor.query.OwnersMovingException;
import io.siteflow.processor.query.SiteflowQueries;
import io.siteflow.processor.topology.Alert;
import io.siteflow.rules.isolation.IsolationInputs;
import io.siteflow.rules.isolation.IsolationJson;
import io.siteflow.rules.isolation.IsolationProposal;
import io.siteflow.rules.isolation.IsolationReport;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.verdict.Window;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ApiServerTest {
    static final long NOW = 1_764_000_030_000L;
    /** The built-in rules as classifier-rules holds them, read from its sources (not through the server's code). */
    static final String FMW_DEFAULTS = read("../classifier-rules/src/main/resources/io/siteflow/rules/fmw-defaults.yaml");
    static final long END = Window.of(NOW, 60_000).start();
    static final String PASS_CUMULATIVE = "{\"server\":\"10.2.0.20\",\"name\":\"wls3\",\"site\":\"region2\","
            + "\"remoteSite\":\"region1\",\"verdict\":\"PASS\",\"dbShare\":0.9312,\"threshold\":0.9,"
            + "\"crossBytes\":10000000,\"categories\":{\"DB\":9312000,\"CLUSTER\":688000},"
            + "\"addresses\":{\"10.1.0.10\":9312000,\"10.1.0.11\":688000},"
            + "\"rttMicros\":{\"p50\":6500,\"p95\":6510,\"max\":6530,\"samples\":812},"
            + "\"dbConnections\":{\"median\":20,\"max\":42},\"dbCalls\":{\"calls\":0,\"callsPerSecond\":0.00,"
            + "\"callMicros\":{\"p50\":0,\"p95\":0,\"p99\":0},\"rttMicros\":0,\"networkShare\":0.0000,"
            + "\"serviceMicros\":{\"p50\":0},\"connections\":{\"median\":20,\"max\":42}},\"rules\":\"sha256:0123abcd\","
            + "\"reason\":\"DB share 93.12% of 10000000 cross-site bytes >= threshold 90%\",\"topFlows\":[]}";
    static final String FAIL_CUMULATIVE = "{\"server\":\"10.2.0.21\",\"name\":\"wls4\",\"site\":\"region2\","
            + "\"remoteSite\":\"region1\",\"verdict\":\"FAIL\",\"dbShare\":0.8000,\"threshold\":0.9,"
            + "\"crossBytes\":5000000,\"categories\":{\"DB\":4000000,\"JMS\":1000000},"
            + "\"addresses\":{\"10.1.0.10\":4000000,\"10.1.0.11\":1000000},"
            + "\"rttMicros\":{\"p50\":6600,\"p95\":12000,\"max\":12500,\"samples\":100},"
            + "\"dbConnections\":{\"median\":10,\"max\":12},\"dbCalls\":{\"calls\":0,\"callsPerSecond\":0.00,"
            + "\"callMicros\":{\"p50\":0,\"p95\":0,\"p99\":0},\"rttMicros\":0,\"networkShare\":0.0000,"
            + "\"serviceMicros\":{\"p50\":0},\"connections\":{\"median\":10,\"max\":12}},\"rules\":\"sha256:0123abcd\","
            + "\"reason\":\"DB share 80.00% of 5000000 cross-site bytes < threshold 90%; largest other category JMS"
            + " (1000000 bytes)\",\"topFlows\":[{\"proto\":6,\"src\":\"10.2.0.21\",\"srcPort\":40112,"
            + "\"dst\":\"10.1.0.11\",\"dstPort\":8011,\"l7\":\"t3-jms\",\"category\":\"JMS\",\"rule\":\"jms-channel\","
            + "\"bytes\":1000000}]}";

    final HttpClient http = HttpClient.newHttpClient();
    StaticQueries queries;
    ApiServer server;

    long started;

    @BeforeEach
    void start() {
        queries = FakeQueries.create(NOW, true);
        started = System.currentTimeMillis();
        server = new ApiServer(ApiServer.Settings.loopback(0), queries, () -> "siteflow_up 1\n").start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + path));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    String body(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = get(path);
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return r.body();
    }

    @Test
    void answersCumulativeVerdictsInTheVerdictJson() throws Exception {
        HttpResponse<String> r = get("/api/verdicts");
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(r.body()).isEqualTo("[" + PASS_CUMULATIVE + "," + FAIL_CUMULATIVE + "]");
    }

    @Test
    void answersTheSiteComparisonPerDatabase() throws Exception {
        String calls = "\"calls\":%d,\"callsPerSecond\":%s,\"callMicros\":{\"p50\":%d,\"p95\":%d,\"p99\":%d},"
                + "\"rttMicros\":%d,\"networkShare\":%s,\"serviceMicros\":{\"p50\":3000},"
                + "\"connections\":{\"median\":%d,\"max\":%d}";
        assertThat(body("/api/dbsites")).isEqualTo("[{\"database\":\"10.1.0.10\",\"name\":\"db1\","
                + "\"site\":\"region1\",\"localServers\":2,\"remoteServers\":2,\"local\":{"
                + calls.formatted(12_000, "200.00", 3_300, 3_400, 3_500, 300, "0.0909", 20, 20) + "},\"remote\":{"
                + calls.formatted(6_000, "100.00", 9_500, 9_700, 9_800, 6_500, "0.6842", 40, 40) + "},"
                + "\"callRatio\":2.8788,\"connectionRatio\":2.0000}]");
    }

    @Test
    void answersTheLastClosedWindowsWithTheirWindow() throws Exception {
        String window = "\"remoteSite\":\"region1\",\"window\":{\"start\":" + (END - 60_000) + ",\"end\":" + END + "},";
        assertThat(body("/api/verdicts?window=latest")).isEqualTo("["
                + PASS_CUMULATIVE.replace("\"remoteSite\":\"region1\",", window) + ","
                + FAIL_CUMULATIVE.replace("\"remoteSite\":\"region1\",", window) + "]");
    }

    @Test
    void answersWindowsStartingInTheRangeOldestFirst() throws Exception {
        String json = body("/api/windows?from=" + (END - 120_000) + "&to=" + END);
        assertThat(json).startsWith("[{\"server\":\"10.2.0.20\",\"name\":\"wls3\",\"site\":\"region2\","
                + "\"remoteSite\":\"region1\",\"window\":{\"start\":" + (END - 120_000) + ",\"end\":" + (END - 60_000) + "}");
        assertThat(json.split("\"window\"", -1)).hasSize(5);
    }

    @Test
    void rejectsAMissingOrBadTimeWithTheParameterNamed() throws Exception {
        HttpResponse<String> r = get("/api/windows?from=yesterday&to=1");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).isEqualTo("{\"error\":\"from: \\\"yesterday\\\" is neither epoch ms nor an ISO-8601 instant\"}");
        assertThat(get("/api/report?from=1").body()).isEqualTo("{\"error\":\"to: required (epoch ms or ISO-8601 instant)\"}");
    }

    @Test
    void reportsThePeriodPerAuditedPair() throws Exception {
        String json = body("/api/report?from=" + (END - 180_000) + "&to=" + END);
        assertThat(json).isEqualTo("{\"from\":" + (END - 180_000) + ",\"to\":" + END + ",\"servers\":["
                + "{\"server\":\"10.2.0.20\",\"name\":\"wls3\",\"site\":\"region2\",\"remoteSite\":\"region1\","
                + "\"verdict\":\"PASS\",\"dbShare\":0.9311,\"threshold\":0.9,\"crossBytes\":18333333,\"windows\":3,"
                + "\"windowVerdicts\":{\"PASS\":3,\"FAIL\":0,\"INSUFFICIENT\":0},"
                + "\"categories\":{\"DB\":17071999,\"CLUSTER\":1261334},"
                + "\"addresses\":{\"10.1.0.10\":17071999,\"10.1.0.11\":1261334},"
                + "\"rttMicros\":{\"p50\":6500,\"p95\":6510,\"max\":6530,\"samples\":2436}},"
                + "{\"server\":\"10.2.0.21\",\"name\":\"wls4\",\"site\":\"region2\",\"remoteSite\":\"region1\","
                + "\"verdict\":\"FAIL\",\"dbShare\":0.7999,\"threshold\":0.9,\"crossBytes\":9166666,\"windows\":3,"
                + "\"windowVerdicts\":{\"PASS\":0,\"FAIL\":3,\"INSUFFICIENT\":0},"
                + "\"categories\":{\"DB\":7333332,\"JMS\":1833334},"
                + "\"addresses\":{\"10.1.0.10\":7333332,\"10.1.0.11\":1833334},"
                + "\"rttMicros\":{\"p50\":6600,\"p95\":12000,\"max\":12500,\"samples\":300}}]}");
    }

    @Test
    void reportsThePeriodAsCsvForDownload() throws Exception {
        HttpResponse<String> r = get("/api/report?from=" + (END - 60_000) + "&to=" + END + "&format=csv");
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/csv; charset=utf-8");
        assertThat(r.headers().firstValue("Content-Disposition"))
                .hasValue("attachment; filename=\"siteflow-report-" + (END - 60_000) + "-" + END + ".csv\"");
        assertThat(r.body()).isEqualTo("server,name,site,remoteSite,verdict,dbShare,threshold,crossBytes,windows,"
                + "pass,fail,insufficient,DB,CLUSTER,JMS,COHERENCE,FRONTEND,ADMIN,OTHER,UNKNOWN,"
                + "rttP50Micros,rttP95Micros,rttMaxMicros,rttSamples,addresses\r\n"
                + "10.2.0.20,wls3,region2,region1,PASS,0.9312,0.9,10000000,1,1,0,0,9312000,688000,0,0,0,0,0,0,"
                + "6500,6510,6530,812,10.1.0.10=9312000 10.1.0.11=688000\r\n"
                + "10.2.0.21,wls4,region2,region1,FAIL,0.8000,0.9,5000000,1,0,1,0,4000000,0,1000000,0,0,0,0,0,"
                + "6600,12000,12500,100,10.1.0.10=4000000 10.1.0.11=1000000\r\n");
    }

    @Test
    void answersAgentsAlertsTalkersRulesAndHosts() throws Exception {
        assertThat(body("/api/agents")).isEqualTo("[{\"agent\":\"edge-r1\",\"iface\":\"ens4\",\"lastSeenMs\":"
                + (NOW - 45_000) + ",\"received\":1000,\"droppedKernel\":0,\"droppedInterface\":0,\"decodeErrors\":0,"
                + "\"spooled\":0,\"dropped\":0,\"silent\":true},{\"agent\":\"wls3\",\"iface\":\"ens3\",\"lastSeenMs\":"
                + (NOW - 1000) + ",\"received\":123456,\"droppedKernel\":7,\"droppedInterface\":0,\"decodeErrors\":2,"
                + "\"spooled\":10,\"dropped\":0,\"silent\":false}]");
        assertThat(body("/api/alerts?limit=5")).isEqualTo("[{\"type\":\"FAIL\",\"key\":\"10.2.0.21\","
                + "\"timeMs\":" + (NOW - 5000) + ",\"message\":\"wls4 (10.2.0.21) towards region1: FAIL, DB share "
                + "80.00% of 5000000 cross-site bytes < threshold 90%; largest other category JMS (1000000 bytes)\"}]");
        assertThat(body("/api/alerts?limit=0")).isEqualTo("[]");
        assertThat(body("/api/talkers?category=jms")).isEqualTo("[{\"local\":\"10.2.0.21\",\"localPort\":0,"
                + "\"remote\":\"10.1.0.11\",\"remotePort\":0,\"category\":\"JMS\",\"out2s\":100.0,\"out10s\":90.0,"
                + "\"out40s\":80.0,\"outTotal\":9000,\"outPeak\":200.0,\"in2s\":40.0,\"in10s\":30.0,\"in40s\":20.0,"
                + "\"inTotal\":3000,\"inPeak\":80.0,\"ageMs\":1000}]");
        assertThat(body("/api/talkers?ports=true&limit=1")).contains("\"localPort\":40000,", "\"remotePort\":1521,");
        assertThat(body("/api/alert-settings"))
                .isEqualTo("{\"baselineMs\":3600000,\"baselineEndMs\":1764000030000,\"repeatMs\":3600000}");
        assertThat(body("/api/rules")).isEqualTo("{\"version\":\"sha256:0123abcd\",\"yaml\":"
                + ApiJson.write(FakeQueries.YAML) + ",\"loadedMs\":" + (NOW - 3_600_000) + ",\"minCrossBytes\":1000000,"
                + "\"defaults\":\"FMW\",\"defaultRules\":" + ApiJson.write(FMW_DEFAULTS)
                + ",\"rttLimitMicros\":10000,\"rttLimitSource\":\"oracle\"}");
        assertThat(body("/api/hosts")).isEqualTo("[{\"address\":\"10.1.0.10\",\"name\":\"db1\",\"role\":\"db\","
                + "\"site\":\"region1\"},{\"address\":\"10.1.0.11\",\"name\":\"<script>alert(1)</script>\","
                + "\"role\":\"app-server\",\"site\":\"region1\"},{\"address\":\"10.2.0.20\",\"name\":\"wls3\","
                + "\"role\":\"app-server\",\"site\":\"region2\"},{\"address\":\"10.2.0.21\",\"name\":\"wls4\","
                + "\"role\":\"app-server\",\"site\":\"region2\"}]");
    }

    @Test
    void rejectsAnUnknownCategoryNamingTheKnownOnes() throws Exception {
        HttpResponse<String> r = get("/api/talkers?category=web");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).isEqualTo("{\"error\":\"category: \\\"web\\\" is not one of DB, CLUSTER, JMS, COHERENCE, "
                + "FRONTEND, ADMIN, OTHER, UNKNOWN\"}");
    }

    @Test
    void answersLinksPerSitePairWithBandwidthEachWayAndRtt() throws Exception {
        assertThat(body("/api/links")).isEqualTo("[{\"siteA\":\"region1\",\"siteB\":\"region2\",\"aToBBps\":3030.0,"
                + "\"bToABps\":990.0,\"rttMicros\":{\"p50\":6500,\"p95\":12000,\"max\":12500,\"samples\":912},"
                + "\"limitMicros\":10000,\"aboveLimit\":true,\"ageMs\":1000}]");
    }

    @Test
    void answersTheLinksBandwidthSampledWhenItStarted() throws Exception {
        String history = body("/api/links/history");
        long t = ApiJson.mapper().readTree(history).get(0).get("points").get(0).get(0).asLong();
        assertThat(t).isBetween(started - 1, System.currentTimeMillis());
        assertThat(history).isEqualTo("[{\"siteA\":\"region1\",\"siteB\":\"region2\",\"points\":[[" + t
                + ",3030.0,990.0]]}]");
    }

    @Test
    void refusesAWindowOtherThanLatest() throws Exception {
        HttpResponse<String> window = get("/api/verdicts?window=last");

        assertThat(window.statusCode()).isEqualTo(400);
        assertThat(window.body()).isEqualTo("{\"error\":\"window: \\\"last\\\" is not latest (leave it out for the "
                + "cumulative verdicts)\"}");
    }

    @Test
    void explainsAFlow() throws Exception {
        assertThat(body("/api/explain?flow=tcp%2010.2.0.20:40112%20-%3E%2010.1.0.10:1521")).isEqualTo(
                "{\"flow\":\"tcp 10.2.0.20:40112 -> 10.1.0.10:1521\",\"explanation\":"
                        + "\"rule oracle-ports (DB) matches tcp 10.2.0.20:40112 -> 10.1.0.10:1521: port 1521\"}");
        assertThat(get("/api/explain").body()).isEqualTo("{\"error\":\"flow: required\"}");
        HttpResponse<String> bad = get("/api/explain?flow=nonsense");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).isEqualTo("{\"error\":\"flow: expected \\\"PROTO SRC:PORT -> DST:PORT "
                + "[l7=NAME]\\\", found \\\"nonsense\\\"\"}");
    }

    @Test
    void servesMetricsAndHealth() throws Exception {
        HttpResponse<String> m = get("/metrics");
        assertThat(m.body()).isEqualTo("siteflow_up 1\n");
        assertThat(m.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(body("/health")).isEqualTo("{\"status\":\"UP\"}");
    }

    @Test
    void healthIs503UntilStreamsRuns() throws Exception {
        queries.update(s -> s.withReady(false));
        HttpResponse<String> r = get("/health");
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.body()).isEqualTo("{\"status\":\"STARTING\"}");
        queries.update(s -> s.withReady(true));
        assertThat(get("/health").statusCode()).isEqualTo(200);
    }

    @Test
    void servesTheDashboardAndTheChartLibraryFromTheClasspath() throws Exception {
        HttpResponse<String> page = get("/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<title>siteflow</title>", "/webjars/echarts/5.3.1/dist/echarts.min.js");
        assertThat(page.headers().firstValue("Content-Security-Policy")).get().asString().startsWith("default-src 'self'");
        HttpResponse<String> lib = get("/webjars/echarts/5.3.1/dist/echarts.min.js");
        assertThat(lib.statusCode()).isEqualTo(200);
        assertThat(lib.body().length()).isGreaterThan(500_000);
    }

    @Test
    void unknownPathsAre404() throws Exception {
        assertThat(get("/api/nothing").statusCode()).isEqualTo(404);
    }

    @Test
    void newAlertIsPushedOverServerSentEvents() throws Exception {
        server.close();
        server = new ApiServer(new ApiServer.Settings("127.0.0.1", 0, Optional.empty(), 100), queries,
                () -> "").start();
        SseReader sse = SseReader.open(server.url() + "/api/events");
        try (sse) {
            assertThat(sse.next("verdicts")).isEqualTo("[" + PASS_CUMULATIVE + "," + FAIL_CUMULATIVE + "]");
            assertThat(sse.next("alerts")).contains("wls4 (10.2.0.21) towards region1: FAIL");
            queries.update(s -> s.withAlert(new Alert("RTT", "region2 region1", NOW, "RTT p95 12.0 ms above 10 ms")));
            assertThat(sse.next("alerts")).startsWith("[{\"type\":\"RTT\",\"key\":\"region2 region1\"");
        }
    }

    /** The fixture's isolation traffic starts here ({@link FakeQueries#isolation}). */
    static final long ISOLATION_T = END - FakeQueries.ISOLATION_START;

    @Test
    void answersTheIsolationOfEverythingRetainedAsTheOfflineCheckWritesIt() throws Exception {
        HttpResponse<String> r = get("/api/isolation");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        IsolationInputs all = queries.isolation(0, IsolationView.ALL_TO).orElseThrow();
        assertThat(r.body()).isEqualTo(IsolationJson.write(IsolationReport.of(all)));
        JsonNode j = ApiJson.mapper().readTree(r.body());
        assertThat(List.of(j.get("from").asLong(), j.get("to").asLong())).containsExactly(0L, 253_402_300_799_999L);
        assertThat(j.get("policy").asText()).isEqualTo(all.evaluator().policy().version()).startsWith("sha256:");
        assertThat(j.get("model").asText()).isEqualTo(all.evaluator().classifier().model().version()).startsWith("sha256:");
        assertThat(pairs(j)).containsExactly("unlisted>unlisted ISOLATED 0", "unlisted>soa ISOLATED 0",
                "unlisted>db NOT_ISOLATED 45000", "soa>unlisted ISOLATED 0", "soa>soa NOT_ISOLATED 10000",
                "soa>db NOT_ISOLATED 230000", "db>unlisted UNVERIFIED 0", "db>soa UNVERIFIED 0", "db>db UNVERIFIED 0");
        assertThat(j.get("violations")).hasSize(3);
        JsonNode denied = j.get("violations").get(0);
        assertThat(denied.toString()).isEqualTo("{\"decision\":\"DENIED\",\"rule\":\"no-t3-to-db\","
                + "\"client\":\"10.2.0.21\",\"server\":\"10.1.0.10\",\"serverPort\":1521,\"proto\":6,"
                + "\"category\":\"DB\",\"l7\":\"t3\",\"fromGroups\":[\"soa\"],\"toGroups\":[\"db\"],"
                + "\"clientSite\":\"region2\",\"serverSite\":\"region1\",\"bytes\":230000,\"packets\":175,"
                + "\"flows\":2,\"firstSeenMs\":" + (ISOLATION_T + 600_000) + ",\"lastSeenMs\":" + (ISOLATION_T + 910_000)
                + ",\"observer\":\"edge-r2\",\"nearestAllow\":{\"rule\":\"app-db\","
                + "\"failed\":[\"l7: t3 not in [oracle-tns]\"]}}");
        assertThat(j.get("violations").get(1).get("nearestAllow").toString())
                .isEqualTo("{\"rule\":\"app-db\",\"failed\":[\"from: 10.2.0.99 (unlisted) not in [soa]\"]}");
        assertThat(j.get("violations").get(2).get("decision").asText()).isEqualTo("UNLISTED");
        assertThat(j.get("modelSuspects").get(0).get("address").asText()).isEqualTo("10.1.0.11");
        assertThat(j.get("unverified").toString()).isEqualTo("[{\"agent\":\"db1\",\"host\":\"10.1.0.10\","
                + "\"reason\":\"dropped 0.52% of its packets (52 of 10000)\"}]");
    }

    @Test
    void answersTheIsolationOfAPeriodWithTheEdgesSeenInIt() throws Exception {
        long from = ISOLATION_T + 600_000;
        long to = ISOLATION_T + 1_000_000;
        JsonNode j = ApiJson.mapper().readTree(body("/api/isolation?from=" + from + "&to=" + to));
        assertThat(List.of(j.get("from").asLong(), j.get("to").asLong())).containsExactly(from, to);
        assertThat(j.get("violations")).hasSize(1);
        assertThat(j.get("violations").get(0).get("rule").asText()).isEqualTo("no-t3-to-db");
        assertThat(pairs(j)).containsExactly("unlisted>unlisted ISOLATED 0", "unlisted>soa ISOLATED 0",
                "unlisted>db UNVERIFIED 0", "soa>unlisted ISOLATED 0", "soa>soa ISOLATED 0", "soa>db NOT_ISOLATED 230000",
                "db>unlisted UNVERIFIED 0", "db>soa UNVERIFIED 0", "db>db UNVERIFIED 0");
        // from alone: to is the end of everything retained
        assertThat(ApiJson.mapper().readTree(body("/api/isolation?from=" + from)).get("to").asLong())
                .isEqualTo(IsolationView.ALL_TO);
    }

    @Test
    void answersTheAuditorsReportOfAPeriodAsJsonOrCsv() throws Exception {
        long from = ISOLATION_T;
        long to = END;
        String json = body("/api/isolation/report?from=" + from + "&to=" + to);
        assertThat(json).isEqualTo(body("/api/isolation?from=" + from + "&to=" + to))
                .isEqualTo(IsolationJson.write(IsolationReport.of(queries.isolation(from, to).orElseThrow())));
        HttpResponse<String> csv = get("/api/isolation/report?from=" + from + "&to=" + to + "&format=csv");
        IsolationReport report = IsolationReport.of(queries.isolation(from, to).orElseThrow());
        String provenance = report.policyVersion() + "," + report.modelVersion() + "," + from + "," + to;
        assertThat(csv.statusCode()).isEqualTo(200);
        assertThat(csv.headers().firstValue("Content-Type")).hasValue("text/csv; charset=utf-8");
        assertThat(csv.headers().firstValue("Content-Disposition"))
                .hasValue("attachment; filename=\"siteflow-isolation-" + from + "-" + to + ".csv\"");
        assertThat(csv.body()).isEqualTo("decision,rule,client,server,serverPort,proto,category,l7,fromGroups,"
                + "toGroups,clientSite,serverSite,bytes,packets,flows,firstSeenMs,lastSeenMs,observer,nearestAllow,failed,"
                + "policy,model,periodFromMs,periodToMs\r\n"
                + "DENIED,no-t3-to-db,10.2.0.21,10.1.0.10,1521,6,DB,t3,soa,db,region2,region1,230000,175,2,"
                + (from + 600_000) + "," + (from + 910_000) + ",edge-r2,app-db,l7: t3 not in [oracle-tns]," + provenance + "\r\n"
                + "UNLISTED,,10.2.0.99,10.1.0.10,1521,6,DB,oracle-tns,unlisted,db,region2,region1,45000,45,1,"
                + (from + 1_200_000) + "," + (from + 1_210_000) + ",edge-r2,app-db,from: 10.2.0.99 (unlisted) not in [soa]," + provenance + "\r\n"
                + "UNLISTED,,10.2.0.20,10.1.0.11,22,6,UNKNOWN,unknown,soa,soa,region2,region1,10000,58,1,"
                + (from + 1_500_000) + "," + (from + 1_510_000) + ",edge-r2,soa-cluster,"
                + "\"categories: UNKNOWN not in [CLUSTER, JMS, COHERENCE]\"," + provenance + "\r\n");
    }

    @Test
    void theAuditorsReportNeedsAPeriodAndAKnownFormat() throws Exception {
        assertThat(error("/api/isolation/report?from=1", 400)).isEqualTo("to: required (epoch ms or ISO-8601 instant)");
        assertThat(error("/api/isolation/report?to=1", 400)).isEqualTo("from: required (epoch ms or ISO-8601 instant)");
        assertThat(error("/api/isolation/report?from=1&to=2&format=xml", 400)).isEqualTo("format: \"xml\" is not json or csv");
        assertThat(error("/api/isolation/report?from=5&to=5", 400)).isEqualTo("to: \"5\" is not after from (5)");
        assertThat(error("/api/isolation?from=2026-12-03T09:00:00Z&to=2026-12-03T08:00:00Z", 400))
                .isEqualTo("to: \"2026-12-03T08:00:00Z\" is not after from (1796288400000)");
        assertThat(error("/api/isolation?from=yesterday", 400))
                .isEqualTo("from: \"yesterday\" is neither epoch ms nor an ISO-8601 instant");
        assertThat(error("/api/isolation/propose?minFlows=0", 400)).isEqualTo("minFlows: \"0\" is not a number from 1 to 1000000000");
    }

    @Test
    void proposesABlockThatAllowsExactlyTheTrafficOfThePeriod() throws Exception {
        HttpResponse<String> r = get("/api/isolation/propose?from=" + ISOLATION_T + "&to=" + END);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/yaml; charset=utf-8");
        IsolationInputs in = queries.isolation(ISOLATION_T, END).orElseThrow();
        assertThat(r.body()).isEqualTo(IsolationProposal.propose(in, 1)).contains("\nisolation:\n");
        // in place of the fixture's block, nothing the period saw violates it
        var model = SiteModelLoader.parse("sites.yaml", IsolationProposal.withBlock(FakeQueries.YAML, r.body()));
        assertThat(model.errors()).isEmpty();
        StaticQueries proposed = FakeQueries.create(NOW, true)
                .withIsolation(FakeQueries.isolation(END, IsolationProposal.withBlock(FakeQueries.YAML, r.body())));
        assertThat(IsolationReport.of(proposed.isolation(ISOLATION_T, END).orElseThrow()).violations()).isEmpty();
        // the DENIED edge has the only two-flow edge besides wls3's TNS: with minFlows=2 only they are proposed
        assertThat(body("/api/isolation/propose?from=" + ISOLATION_T + "&to=" + END + "&minFlows=2"))
                .isEqualTo(IsolationProposal.propose(in, 2)).isNotEqualTo(r.body());
    }

    @Test
    void aModelWithoutAPolicySaysSoAndStillProposesOne() throws Exception {
        queries.withIsolation(FakeQueries.isolation(END, FakeQueries.YAML_WITHOUT_POLICY));
        String model = queries.isolation(0, 1).orElseThrow().evaluator().classifier().model().version();
        String why = "isolation: the site model in force (" + model + ") has no isolation: block; "
                + "GET /api/isolation/propose proposes one from the traffic";
        assertThat(error("/api/isolation", 404)).isEqualTo(why);
        assertThat(error("/api/isolation/report?from=0&to=" + END, 404)).isEqualTo(why);
        assertThat(body("/api/isolation/propose")).isEqualTo(IsolationProposal.propose(
                queries.isolation(0, IsolationView.ALL_TO).orElseThrow(), 1));
    }

    @Test
    void beforeASiteModelIsInForceIsolationIsUnavailable() throws Exception {
        queries.withoutIsolation();
        String why = "isolation: no site model in force yet (the processor reads it from siteflow.sites)";
        assertThat(error("/api/isolation", 503)).isEqualTo(why);
        assertThat(error("/api/isolation/report?from=0&to=1", 503)).isEqualTo(why);
        assertThat(error("/api/isolation/propose", 503)).isEqualTo(why);
    }

    @Test
    void aMovingOwnerMakesIsolation503WithTheKeysNamed() throws Exception {
        server.close();
        OwnersMovingException moving = new OwnersMovingException("isolation edges", "edge owners",
                List.of(new OwnersMovingException.Unavailable("10.2.0.21", "wls4", "no instance runs its task now")),
                List.of(), 4);
        SiteflowQueries q = (SiteflowQueries) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {SiteflowQueries.class}, (proxy, m, args) -> {
                    if (m.getName().equals("isolation")) {
                        throw moving;
                    }
                    try {
                        return m.invoke(queries, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        server = new ApiServer(ApiServer.Settings.loopback(0), q, () -> "").start();
        for (String path : List.of("/api/isolation", "/api/isolation/report?from=0&to=1", "/api/isolation/propose")) {
            HttpResponse<String> r = get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(503);
            assertThat(r.headers().firstValue("Retry-After")).as(path).hasValue("1");
            assertThat(r.body()).as(path).isEqualTo(ViewFailure.of(moving, path).json())
                    .startsWith("{\"error\":\"isolation edges of 1 of 4 edge owners are temporarily unavailable");
        }
    }

    /** Each pair as {@code from>to STATE violatingBytes}. */
    private static List<String> pairs(JsonNode report) {
        List<String> out = new java.util.ArrayList<>();
        report.get("pairs").forEach(p -> out.add(p.get("from").asText() + ">" + p.get("to").asText() + " "
                + p.get("state").asText() + " " + p.get("violatingBytes").asLong()));
        return out;
    }

    /** The {@code error} of an answer with that status. */
    private String error(String path, int status) throws Exception {
        HttpResponse<String> r = get(path);
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        return ApiJson.mapper().readTree(r.body()).get("error").asText();
    }

    private static String read(String path) {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of(path));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
