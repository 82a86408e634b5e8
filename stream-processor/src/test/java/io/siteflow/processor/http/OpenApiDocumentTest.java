package io.siteflow.processor.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.siteflow.processor.http.OpenApiDocument.Call;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * docs/openapi.yaml stays true: it is a valid OpenAPI 3.1 document, it lists exactly the routes the server has,
 * and every answer of the server over the {@link FakeQueries} fixture (the data of {@link ApiServerTest}) has
 * a documented status and media type and validates against the documented schema.
 */
class OpenApiDocumentTest {
    /** Surefire runs in the module's directory. */
    static final Path DOCUMENT = Path.of("..", "docs", "openapi.yaml");

    static OpenApiDocument doc;
    final HttpClient http = HttpClient.newHttpClient();
    StaticQueries queries;
    ApiServer server;

    @BeforeAll
    static void read() {
        doc = OpenApiDocument.read(DOCUMENT);
    }

    @BeforeEach
    void start() {
        queries = FakeQueries.create(ApiServerTest.NOW, true);
        server = new ApiServer(ApiServer.Settings.loopback(0), queries, Optional.empty(), () -> "siteflow_up 1\n",
                new FakeWhatIf()).start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** Status, media type without its parameters, headers, body (of an event stream: the events sent on connect). */
    record Answer(int status, String mediaType, HttpHeaders headers, String body) {
    }

    Answer get(ApiServer s, String target, Set<String> accept) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(s.url() + target))
                .header("Accept", String.join(", ", accept)).build();
        HttpResponse<InputStream> r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        String media = r.headers().firstValue("Content-Type").orElse("").split(";", 2)[0].trim();
        try (InputStream in = r.body()) {
            String body = media.equals("text/event-stream") ? firstEvents(in)
                    : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new Answer(r.statusCode(), media, r.headers(), body);
        }
    }

    /** The events sent on connect, one per view, read whole so that the stream is not cut in the middle. */
    private static String firstEvents(InputStream in) throws IOException {
        BufferedReader b = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        int events = 0;
        while (events < ApiViews.eventNames().size()) {
            String line = b.readLine();
            if (line == null) {
                break;
            }
            out.append(line).append('\n');
            events += line.isEmpty() ? 1 : 0;
        }
        return out.toString();
    }

    @Test
    void isAValidOpenApi31Document() {
        assertThat(doc.messages()).isEmpty();
        assertThat(doc.openapi()).isEqualTo("3.1.0");
    }

    @Test
    void documentsExactlyTheRoutesTheServerAnswers() {
        assertThat(doc.paths()).containsExactlyInAnyOrderElementsOf(server.paths());
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void everyAnswerToTheDocumentedExamplesMatchesTheDocumentedResponse() throws Exception {
        List<String> failures = new ArrayList<>();
        List<Call> calls = doc.exampleCalls();
        for (Call c : calls) {
            Set<String> documented = doc.mediaTypes(c.path(), 200);
            Answer a = get(server, c.target(), documented);
            if (a.status() != 200 || !documented.contains(a.mediaType())) {
                failures.add(c.target() + ": " + a.status() + " " + a.mediaType() + ", documented 200 " + documented);
                continue;
            }
            if (a.mediaType().equals("application/json") && isEmptyArray(a.body())) {
                failures.add(c.target() + ": answered [], which proves nothing; the fixture should give rows");
            }
            doc.validate(c.path(), 200, a.mediaType(), a.body()).forEach(e -> failures.add(c.target() + ": " + e));
        }
        assertThat(calls.stream().map(Call::path).distinct()).containsExactlyElementsOf(doc.paths());
        assertThat(failures).isEmpty();
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void describesEveryEventTheStreamSends() throws Exception {
        Answer a = get(server, "/api/events", doc.mediaTypes("/api/events", 200));
        assertThat(a.body().lines().filter(l -> l.startsWith("event:")).map(l -> l.substring(6).trim()))
                .containsExactlyElementsOf(ApiViews.eventNames());
        assertThat(doc.description("/api/events"))
                .contains(ApiViews.eventNames().stream().map(n -> "| `" + n + "` |").toList());
    }

    @Test
    void aMalformedTimeIsTheDocumented400() throws Exception {
        Answer a = get(server, "/api/windows?from=yesterday&to=1", Set.of("application/json"));
        assertThat(a.status()).isEqualTo(400);
        assertThat(doc.mediaTypes("/api/windows", 400)).containsExactly(a.mediaType());
        assertThat(doc.validate("/api/windows", 400, a.mediaType(), a.body())).as(a.body()).isEmpty();
    }

    @Test
    void withATokenEveryPathThatDocuments401AnswersItAndTheOthersStayOpen() throws Exception {
        try (ApiServer guarded = new ApiServer(new ApiServer.Settings("127.0.0.1", 0, Optional.of("s3cret"), 2000),
                queries, () -> "").start()) {
            for (String path : doc.paths()) {
                Answer a = get(guarded, path, Set.of("application/json"));
                if (doc.mediaTypes(path, 401).isEmpty()) {
                    assertThat(a.status()).as(path).isEqualTo(200);
                    continue;
                }
                assertThat(a.status()).as(path).isEqualTo(401);
                assertThat(doc.mediaTypes(path, 401)).as(path).containsExactly(a.mediaType());
                assertThat(doc.headers(path, 401)).as(path).allMatch(h -> a.headers().firstValue(h).isPresent());
                assertThat(doc.validate(path, 401, a.mediaType(), a.body())).as(path + " " + a.body()).isEmpty();
            }
        }
    }

    @Test
    void healthBeforeStreamsRunsIsTheDocumented503() throws Exception {
        queries.update(s -> s.withReady(false));
        Answer a = get(server, "/health", Set.of("application/json"));
        assertThat(a.status()).isEqualTo(503);
        assertThat(doc.mediaTypes("/health", 503)).containsExactly(a.mediaType());
        assertThat(doc.validate("/health", 503, a.mediaType(), a.body())).as(a.body()).isEmpty();
        assertThat(doc.validate("/health", 200, a.mediaType(), a.body())).isNotEmpty();
    }

    private static boolean isEmptyArray(String json) throws IOException {
        JsonNode n = ApiJson.mapper().readTree(json);
        return n.isArray() && n.isEmpty();
    }
}
