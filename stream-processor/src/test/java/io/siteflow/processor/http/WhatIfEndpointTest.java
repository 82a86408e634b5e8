package io.siteflow.processor.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.processor.query.WhatIfSource;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The endpoints of the "DB latency" view: {@code /api/whatif} (the what-if JSON, 400 naming the parameter, 503
 * when it cannot be answered) and {@code /api/dbcalls} (call-time histograms).
 */
class WhatIfEndpointTest {
    /** The example of docs/API.md, byte for byte. */
    static final String EXAMPLE = "{\"server\":\"wls3\",\"address\":\"10.2.0.20\",\"fromSite\":\"region2\","
            + "\"toSite\":\"region1\",\"crossBytes\":{\"before\":1800000,\"after\":100000},\"becomeLocal\":{\"flows\":1,"
            + "\"bytes\":1800000,\"largest\":[{\"src\":\"10.2.0.20\",\"srcPort\":40000,\"dst\":\"10.1.0.10\","
            + "\"dstPort\":1521,\"category\":\"DB\",\"bytes\":1800000}]},\"becomeRemote\":{\"flows\":1,\"bytes\":100000,"
            + "\"largest\":[{\"src\":\"10.2.0.20\",\"srcPort\":40000,\"dst\":\"10.2.0.21\",\"dstPort\":7001,"
            + "\"category\":\"CLUSTER\",\"bytes\":100000}]},\"dbCalls\":{\"stopPaying\":2000,\"startPaying\":0,"
            + "\"seconds\":10,\"rttSavedMicros\":6500,\"microsSavedPerSecond\":1300000},\"limitMicros\":10000,"
            + "\"links\":[{\"siteA\":\"region1\",\"siteB\":\"region2\",\"rttP50Micros\":6500,\"fibreKmAtMost\":650,"
            + "\"aboveLimit\":false},{\"siteA\":\"region2\",\"siteB\":\"region2\",\"rttP50Micros\":300,"
            + "\"fibreKmAtMost\":30,\"aboveLimit\":false}]}";
    /** The {@code /api/dbcalls} example of docs/API.md, byte for byte. */
    static final String DBCALLS = "[{\"server\":\"10.2.0.20\",\"remoteSite\":\"region1\",\"calls\":75,"
            + "\"buckets\":[[6584,6715,20],[9403,9591,50],[13973,14252,5]]}]";
    final HttpClient http = HttpClient.newHttpClient();
    ApiServer server;

    private HttpResponse<String> get(WhatIfSource source, String path) throws IOException, InterruptedException {
        server = new ApiServer(ApiServer.Settings.loopback(0), FakeQueries.create(ApiServerTest.NOW, true),
                Optional.empty(), () -> "", source).start();
        return http.send(HttpRequest.newBuilder(URI.create(server.url() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void answersTheWhatIfJsonOfMovingAServer() throws Exception {
        HttpResponse<String> r = get(new FakeWhatIf(), "/api/whatif?server=wls3&site=region1");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(r.body()).isEqualTo(EXAMPLE);
    }

    @Test
    void answersTheCallTimeHistogramOfEachPairWithCalls() throws Exception {
        HttpResponse<String> r = get(new FakeWhatIf(), "/api/dbcalls");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(DBCALLS);
        assertThat(Files.readString(Path.of("..", "docs", "API.md"))).contains("\n" + DBCALLS + "\n");
    }

    @Test
    void docsApiShowsThisAnswer() throws Exception {
        assertThat(Files.readString(Path.of("..", "docs", "API.md"))).contains("\n" + EXAMPLE + "\n");
    }

    @Test
    void anUnknownServerIsA400NamingTheParameter() throws Exception {
        HttpResponse<String> r = get(new FakeWhatIf(), "/api/whatif?server=wls9&site=region1");

        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).isEqualTo("{\"error\":\"server: \\\"wls9\\\" is not a host of the site model in force\"}");
    }

    @Test
    void anUnknownSiteIsA400NamingTheParameter() throws Exception {
        HttpResponse<String> r = get(new FakeWhatIf(), "/api/whatif?server=10.2.0.20&site=mars");

        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).isEqualTo("{\"error\":\"site: \\\"mars\\\" is not a site of the site model in force\"}");
    }

    @Test
    void aMissingSiteIsA400NamingIt() throws Exception {
        HttpResponse<String> r = get(new FakeWhatIf(), "/api/whatif?server=wls3");

        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).isEqualTo("{\"error\":\"site: required\"}");
    }

    @Test
    void aWhatIfThatCannotBeAnsweredNowIsA503SayingWhy() throws Exception {
        HttpResponse<String> r = get((s, t) -> {
            throw new WhatIfSource.Unavailable("what-if: no site model in force", null);
        }, "/api/whatif?server=wls3&site=region1");

        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.body()).isEqualTo("{\"error\":\"what-if: no site model in force\"}");
    }
}
