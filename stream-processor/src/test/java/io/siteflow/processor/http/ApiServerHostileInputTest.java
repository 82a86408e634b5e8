package io.siteflow.processor.http;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.siteflow.processor.query.SiteflowQueries;
import io.siteflow.processor.query.StoreView;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Proxy;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Client input the hostile-input probe of issue 17 sent (far-off instants, foreign Host headers), and what
 * {@code /health} says about a rejected site model.
 */
class ApiServerHostileInputTest {
    static final String OUT_OF_RANGE = "is outside 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z";
    final HttpClient http = HttpClient.newHttpClient();
    final ListAppender<ILoggingEvent> log = new ListAppender<>();
    ApiServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).detachAppender(log);
    }

    private void serve(ApiServer.Settings settings) {
        server = new ApiServer(settings, FakeQueries.create(ApiServerTest.NOW, true), Optional.of(EMPTY_STORE),
                () -> "up 1\n").start();
    }

    @Test
    void answers400NamingTheParameterForAnInstantNoEpochMillisecondCanHoldAndLogsNothing() throws Exception {
        serve(ApiServer.Settings.loopback(0));
        log.start();
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).addAppender(log);

        for (String path : List.of("/api/windows", "/api/trend", "/api/report", "/internal/store/windows")) {
            HttpResponse<String> from = get(path + "?from=%2B999999999-12-31T23:59:59Z&to=1");
            HttpResponse<String> to = get(path + "?from=0&to=999999999999999999");

            assertThat(from.statusCode()).as(path).isEqualTo(400);
            assertThat(from.body()).as(path).isEqualTo("{\"error\":\"from: \\\"+999999999-12-31T23:59:59Z\\\" "
                    + OUT_OF_RANGE + "\"}");
            assertThat(to.statusCode()).as(path).isEqualTo(400);
            assertThat(to.body()).as(path).isEqualTo("{\"error\":\"to: \\\"999999999999999999\\\" " + OUT_OF_RANGE
                    + "\"}");
        }
        assertThat(get("/api/windows?from=-1000000000-01-01T00:00:00Z&to=1").body()).isEqualTo(
                "{\"error\":\"from: \\\"-1000000000-01-01T00:00:00Z\\\" " + OUT_OF_RANGE + "\"}");
        assertThat(get("/api/windows?from=1970-01-01T00:00:00Z&to=9999-12-31T23:59:59.999Z").statusCode())
                .isEqualTo(200);
        assertThat(log.list).filteredOn(e -> e.getThrowableProxy() != null).isEmpty();
    }

    @Test
    void answersOnlyToAHostThatNamesThisServer() throws Exception {
        serve(new ApiServer.Settings("127.0.0.1", 0, Optional.empty(), 2000, List.of("Proc1.Example.net")));

        assertThat(raw("/api/agents", "evil.example:" + server.port())).startsWith("HTTP/1.1 421 ")
                .endsWith("\r\n\r\n{\"error\":\"Host \\\"evil.example:" + server.port()
                        + "\\\" is not a name of this server (--http-allowed-host adds one)\"}");
        assertThat(raw("/", "evil.example")).startsWith("HTTP/1.1 421 ");
        assertThat(raw("/health", "10.9.8.7")).startsWith("HTTP/1.1 421 ");
        for (String host : List.of("127.0.0.1:" + server.port(), "localhost:" + server.port(), "LOCALHOST",
                "[::1]:" + server.port(), "proc1.example.net", "proc1.example.net.:8080")) {
            assertThat(raw("/api/agents", host)).as(host).startsWith("HTTP/1.1 200 ");
        }
    }

    @Test
    void acceptsAnyIpLiteralButNoOtherNameWhenBoundToEveryAddress() throws Exception {
        serve(new ApiServer.Settings("0.0.0.0", 0, Optional.empty(), 2000));

        assertThat(raw("/health", "10.9.8.7:8080")).startsWith("HTTP/1.1 200 ");
        assertThat(raw("/health", "[fd00::7]:8080")).startsWith("HTTP/1.1 200 ");
        assertThat(raw("/health", "localhost")).startsWith("HTTP/1.1 200 ");
        assertThat(raw("/health", "rebound.example")).startsWith("HTTP/1.1 421 ");
        assertThat(raw("/health", "10.9.8.7.rebound.example")).startsWith("HTTP/1.1 421 ");
    }

    @Test
    void healthSaysWhyTheNewestSiteModelIsNotInForceAndStaysUp() throws Exception {
        SiteflowQueries base = FakeQueries.create(ApiServerTest.NOW, true);
        SiteflowQueries rejecting = (SiteflowQueries) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {SiteflowQueries.class}, (proxy, method, args) -> method.getName().equals(
                        "siteModelProblem") ? Optional.of("site model on siteflow.sites rejected (1 error); keeping "
                        + "sha256:ab") : method.invoke(base, args));
        server = new ApiServer(ApiServer.Settings.loopback(0), rejecting, () -> "").start();

        HttpResponse<String> r = get("/health");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("{\"status\":\"UP\",\"siteModel\":\"site model on siteflow.sites rejected "
                + "(1 error); keeping sha256:ab\"}");
    }

    @Test
    void healthIsDownWithTheReasonAndReadsNoStoreWhileKafkaStreamsIsNotRunning() throws Exception {
        SiteflowQueries base = FakeQueries.create(ApiServerTest.NOW, true);
        SiteflowQueries failed = (SiteflowQueries) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {SiteflowQueries.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "health" -> io.siteflow.processor.query.ProcessorHealth.down("Kafka Streams is ERROR; it "
                            + "failed: java.lang.IllegalStateException: boom; restart 1 in 1 s");
                    case "siteModelProblem" -> throw new IllegalStateException("KafkaStreams is not running. State "
                            + "is ERROR.");
                    default -> method.invoke(base, args);
                });
        server = new ApiServer(ApiServer.Settings.loopback(0), failed, () -> "").start();

        HttpResponse<String> r = get("/health");

        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.body()).isEqualTo("{\"status\":\"DOWN\",\"reason\":\"Kafka Streams is ERROR; it failed: "
                + "java.lang.IllegalStateException: boom; restart 1 in 1 s\"}");
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(server.url() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** One HTTP/1.1 request with this Host header (java.net.http does not let a caller set it), the whole answer. */
    private String raw(String path, String host) throws IOException {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static final StoreView EMPTY_STORE = new io.siteflow.processor.testing.EmptyStoreView();
}
