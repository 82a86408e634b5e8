package io.siteflow.bench.soak;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Reads the cumulative verdicts ({@code GET /api/verdicts}) of one processor instance, which answers for the
 * whole cluster, into per-server totals of the fleet. Not thread-safe.
 */
final class VerdictPoller {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One reading.
     *
     * @param crossBytes per agent's server, its verdict's {@code crossBytes} (0 without a verdict)
     * @param samples    per agent's server, its verdict's {@code rttMicros.samples}: records counted
     * @param pairs      verdicts in the answer
     */
    record Totals(long[] crossBytes, long[] samples, int pairs) {
        long records() {
            long n = 0;
            for (long s : samples) {
                n += s;
            }
            return n;
        }

        long bytes() {
            long n = 0;
            for (long b : crossBytes) {
                n += b;
            }
            return n;
        }
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI uri;
    private final SoakFleet fleet;

    VerdictPoller(String api, SoakFleet fleet) {
        this.uri = URI.create(api.replaceAll("/+$", "") + "/api/verdicts");
        this.fleet = fleet;
    }

    /** Reads the verdicts; throws IOException naming the URL and the status when the answer is not 200. */
    Totals read() throws IOException, InterruptedException {
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != 200) {
            throw new IOException(uri + ": HTTP " + r.statusCode() + ": "
                    + new String(r.body(), java.nio.charset.StandardCharsets.UTF_8).lines().findFirst().orElse(""));
        }
        return totals(JSON.readTree(r.body()), fleet);
    }

    /** The fleet's totals in a {@code /api/verdicts} answer; pairs of servers outside the fleet are counted only. */
    static Totals totals(JsonNode verdicts, SoakFleet fleet) throws IOException {
        if (!verdicts.isArray()) {
            throw new IOException("/api/verdicts: not a JSON array: " + verdicts.getNodeType());
        }
        long[] bytes = new long[fleet.agents()];
        long[] samples = new long[fleet.agents()];
        for (JsonNode v : verdicts) {
            int i = fleet.agentOf(v.path("server").asText());
            if (i >= 0) {
                bytes[i] += v.path("crossBytes").asLong();
                samples[i] += v.path("rttMicros").path("samples").asLong();
            }
        }
        return new Totals(bytes, samples, verdicts.size());
    }
}
