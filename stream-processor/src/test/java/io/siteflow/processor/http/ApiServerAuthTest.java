package io.siteflow.processor.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ApiServerAuthTest {
    final HttpClient http = HttpClient.newHttpClient();
    ApiServer server;

    @BeforeEach
    void start() {
        server = new ApiServer(new ApiServer.Settings("127.0.0.1", 0, Optional.of("s3cret"), 2000),
                FakeQueries.create(ApiServerTest.NOW, true), () -> "up 1\n").start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + path));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void everyApiEndpointAndMetricsNeedTheToken() throws Exception {
        for (String path : new String[] {"/api/verdicts", "/api/verdicts?window=latest", "/api/windows?from=0&to=1",
                "/api/report?from=0&to=1", "/api/agents", "/api/alerts", "/api/talkers", "/api/rules", "/api/hosts",
                "/api/links", "/api/links/history", "/api/explain?flow=x", "/api/events", "/metrics"}) {
            HttpResponse<String> r = get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(401);
            assertThat(r.body()).as(path).isEqualTo("{\"error\":\"bearer token required\"}");
            assertThat(r.headers().firstValue("WWW-Authenticate")).as(path).hasValue("Bearer realm=\"siteflow\"");
        }
    }

    @Test
    void aWrongTokenIsRefused() throws Exception {
        assertThat(get("/api/verdicts", "Authorization", "Bearer s3cret!").statusCode()).isEqualTo(401);
        assertThat(get("/api/verdicts?token=nope").statusCode()).isEqualTo(401);
    }

    @Test
    void theTokenOpensTheApiAsHeaderOrQueryParameter() throws Exception {
        assertThat(get("/api/agents", "Authorization", "Bearer s3cret").statusCode()).isEqualTo(200);
        assertThat(get("/metrics?token=s3cret").body()).isEqualTo("up 1\n");
    }

    @Test
    void healthAndThePageNeedNoToken() throws Exception {
        assertThat(get("/health").statusCode()).isEqualTo(200);
        assertThat(get("/").statusCode()).isEqualTo(200);
    }
}
