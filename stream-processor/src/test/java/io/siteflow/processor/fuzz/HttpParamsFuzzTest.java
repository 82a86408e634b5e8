package io.siteflow.processor.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.api.SilentCloseable;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.siteflow.processor.http.ApiServer;
import io.siteflow.processor.http.StaticQueries;
import io.siteflow.processor.query.RulesInfo;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.classify.FlowSyntax;
import io.siteflow.rules.isolation.IsolationEvaluator;
import io.siteflow.rules.isolation.IsolationInputs;
import io.siteflow.rules.load.SiteModelLoader;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Fuzz harness for the HTTP API's query-parameter parsers, through a real {@link ApiServer} on loopback (the
 * parsers are what every request meets first: times, limits, flags, categories, {@code window}, {@code format},
 * the flow syntax). Input layout: byte 0 picks an endpoint of {@link #ENDPOINTS}, the rest is UTF-8 text whose
 * lines are the values of that endpoint's parameters, in order. Whatever the values, the answer is 200, or
 * 400 with an error naming one of the parameters sent; never a 500. The request itself is allowed past
 * Jazzer's SSRF detector (it goes to this server only). Seeds: {@code src/test/resources/io/
 * siteflow/processor/fuzz/HttpParamsFuzzTestInputs/}; docs/FUZZING.md.
 */
class HttpParamsFuzzTest {
    /** Path and parameter names, in the order the input's lines fill them. */
    static final List<List<String>> ENDPOINTS = List.of(
            List.of("/api/windows", "from", "to", "server"),
            List.of("/api/trend", "from", "to"),
            List.of("/api/report", "from", "to", "format"),
            List.of("/api/alerts", "limit"),
            List.of("/api/talkers", "ports", "category", "limit"),
            List.of("/api/verdicts", "window"),
            List.of("/api/explain", "flow"),
            List.of("/api/isolation", "from", "to"),
            List.of("/api/isolation/report", "from", "to", "format"),
            List.of("/api/isolation/propose", "from", "to", "minFlows"));

    /** A site model with an isolation policy, so that the isolation endpoints answer 200 to good parameters. */
    static final String SITES = """
            sites:
              region1: { cidrs: [10.1.0.0/16] }
              region2: { cidrs: [10.2.0.0/16] }
            hosts:
              - { address: 10.1.0.10, name: db1, role: db }
            isolation:
              groups:
                db: { roles: [db] }
              allow:
                - { name: to-db, from: any, to: db, categories: [DB] }
            """;

    private static ApiServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        StaticQueries queries = new StaticQueries(new StaticQueries.Snapshot(List.of(), List.of(), List.of(),
                List.of(), List.of(), List.of(), new RulesInfo("sha256:0", "sites: {}\n", 0L), true),
                flow -> "no rule matches " + FlowSyntax.parse(flow));
        queries.withIsolation(new IsolationInputs(new IsolationEvaluator(new Classifier(
                SiteModelLoader.parse("sites.yaml", SITES).model().orElseThrow())), 0, 1, List.of(), List.of(), List.of()));
        server = new ApiServer(ApiServer.Settings.loopback(0), queries, () -> "").start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @FuzzTest
    void answersOkOrABadRequestNamingTheParameter(byte[] input) throws IOException, InterruptedException {
        if (input.length == 0) {
            return;
        }
        List<String> endpoint = ENDPOINTS.get((input[0] & 0xFF) % ENDPOINTS.size());
        String[] values = new String(input, 1, input.length - 1, StandardCharsets.UTF_8).split("\n", -1);
        StringBuilder query = new StringBuilder();
        for (int i = 0; i < values.length && i + 1 < endpoint.size(); i++) {
            query.append(i == 0 ? '?' : '&').append(endpoint.get(i + 1)).append('=')
                    .append(URLEncoder.encode(values[i], StandardCharsets.UTF_8));
        }
        HttpResponse<String> r;
        try (SilentCloseable toOurServer = BugDetectors.allowNetworkConnections(
                (host, port) -> port == server.port() && (host.equals("localhost") || host.equals("127.0.0.1")))) {
            r = HTTP.send(HttpRequest.newBuilder(URI.create(server.url() + endpoint.get(0) + query)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        assertThat(r.statusCode()).as(endpoint.get(0) + query + ": " + r.body()).isIn(200, 400);
        if (r.statusCode() == 400) {
            assertThat(endpoint.subList(1, endpoint.size()))
                    .as(endpoint.get(0) + query + ": " + r.body())
                    .anyMatch(name -> r.body().startsWith("{\"error\":\"" + name + ": "));
        }
    }
}
