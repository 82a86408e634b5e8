package io.siteflow.processor.topology;

import static io.siteflow.processor.topology.Flows.T0;
import static io.siteflow.processor.topology.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.FlowRecord;
import io.siteflow.processor.http.ApiServer;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.isolation.IsolationEvaluator;
import io.siteflow.rules.isolation.IsolationInputs;
import io.siteflow.rules.isolation.IsolationInputsBuilder;
import io.siteflow.rules.isolation.IsolationJson;
import io.siteflow.rules.isolation.IsolationReport;
import io.siteflow.rules.load.SiteModelLoader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /api/isolation} over the real topology (Kafka Streams' {@code TopologyTestDriver}: the isolation stage, its
 * stores and {@code StreamsQueries.isolation}) answers what {@code siteflow isolation check --format json} writes for
 * the same records ({@link IsolationInputsBuilder}, {@link IsolationJson}): the same violations with their evidence,
 * the same pairs, the same MODEL_SUSPECT entries, byte for byte, for everything retained and for a period.
 */
class IsolationApiTest {
    /** The end of the API's default period ({@code Params.LAST}). */
    static final long ALL_TO = Instant.parse("9999-12-31T23:59:59.999Z").toEpochMilli();
    final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void theApiAnswersWhatTheOfflineCheckWritesForTheSameRecords() throws Exception {
        List<FlowRecord> records = new ArrayList<>(IsolationStageTest.mix());
        records.add(flow().id("i-8").at(T0 + 125_000).bytes(1, 0).build()); // closes the first window
        try (Driver d = new Driver(TopologyConfig.DEFAULTS, dir, Instant.ofEpochMilli(T0));
             ApiServer server = new ApiServer(ApiServer.Settings.loopback(0), d.queries(), () -> "").start()) {
            d.withSites(IsolationStageTest.SITES);
            records.forEach(d::send);
            d.driver.advanceWallClockTime(Duration.ofSeconds(1)); // a commit: the stores hold what the stage wrote

            String all = get(server, "/api/isolation");
            assertThat(all).isEqualTo(IsolationJson.write(IsolationReport.of(offline(records, 0, ALL_TO))));
            assertThat(all).contains("\"decision\" : \"DENIED\"", "\"rule\" : \"no-t3-to-db\"", "\"bytes\" : 420",
                    "\"state\" : \"NOT_ISOLATED\"");

            // the second window alone: the edges the offline check finds in the records that started in it
            long from = T0 + 60_000;
            long to = T0 + 120_000;
            String second = get(server, "/api/isolation?from=" + from + "&to=" + to);
            assertThat(second).isEqualTo(IsolationJson.write(IsolationReport.of(offline(
                    records.stream().filter(r -> r.start() >= from && r.start() < to).toList(), from, to))));
            assertThat(second).contains("\"bytes\" : 20,");
        }
    }

    /** {@code siteflow isolation check}'s accumulation of the records over [from, to). */
    private static IsolationInputs offline(List<FlowRecord> records, long from, long to) throws Exception {
        IsolationInputsBuilder b = new IsolationInputsBuilder(new IsolationEvaluator(new Classifier(
                SiteModelLoader.parse("sites.yaml", IsolationStageTest.SITES).orThrow())));
        records.forEach(b::add);
        return b.build(from, to, List.of());
    }

    private String get(ApiServer server, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(server.url() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return r.body();
    }
}
