package io.siteflow.systemtest.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import io.siteflow.processor.http.ApiJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Asks {@code GET /api/verdicts} of one processor instance every 100 ms (after the previous answer) on its own
 * thread and keeps, per audited server, what each answer said about it: its cumulative cross-site bytes, or the
 * reason of a 503. Any other answer (another status, no answer) is kept as a failure. One pair per server
 * (the servers of {@code SyntheticCluster} have one remote site). Thread-safe.
 */
final class VerdictPoller implements AutoCloseable {
    /** What one answer said about one server: {@code crossBytes}, or null and the {@code reason}. */
    record Sample(long atMs, Long crossBytes, String reason) {
    }

    private final URI uri;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final Map<String, List<Sample>> samples = new ConcurrentHashMap<>();
    private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    private final List<String> servers;

    private VerdictPoller(String baseUrl, List<String> servers) {
        this.uri = URI.create(baseUrl + "/api/verdicts");
        this.servers = List.copyOf(servers);
        servers.forEach(s -> samples.put(s, Collections.synchronizedList(new ArrayList<>())));
    }

    static VerdictPoller start(String baseUrl, List<String> servers) {
        VerdictPoller p = new VerdictPoller(baseUrl, servers);
        p.timer.scheduleWithFixedDelay(p::poll, 0, 100, TimeUnit.MILLISECONDS);
        return p;
    }

    private void poll() {
        long at = System.currentTimeMillis();
        try {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode body = ApiJson.mapper().readTree(r.body());
            if (r.statusCode() == 200) {
                numbers(at, body);
            } else if (r.statusCode() == 503 && body.has("unavailable")) {
                body.get("unavailable").forEach(u -> add(u.get("server").asText(), new Sample(at, null,
                        u.get("reason").asText())));
                numbers(at, body.get("verdicts"));
            } else if (r.statusCode() == 503) {
                servers.forEach(s -> add(s, new Sample(at, null, body.get("error").asText())));
            } else {
                failures.add(at + ": HTTP " + r.statusCode() + " " + r.body());
            }
        } catch (IOException | RuntimeException e) {
            failures.add(at + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void numbers(long at, JsonNode verdicts) {
        verdicts.forEach(v -> add(v.get("server").asText(), new Sample(at, v.get("crossBytes").asLong(), null)));
    }

    private void add(String server, Sample s) {
        List<Sample> l = samples.get(server);
        if (l == null) {
            failures.add(s.atMs() + ": an answer about " + server + ", which is not audited");
        } else {
            l.add(s);
        }
    }

    /** What the answers said about {@code server} so far, oldest first. */
    List<Sample> samples(String server) {
        synchronized (samples.get(server)) {
            return List.copyOf(samples.get(server));
        }
    }

    /** Answers that were neither a 200 nor a 503 with a reason. */
    List<String> failures() {
        synchronized (failures) {
            return List.copyOf(failures);
        }
    }

    /** The longest time between two answers with a number for {@code server} (ms). */
    long longestGapMs(String server) {
        long longest = 0;
        long last = -1;
        for (Sample s : samples(server)) {
            if (s.crossBytes() != null) {
                longest = last < 0 ? longest : Math.max(longest, s.atMs() - last);
                last = s.atMs();
            }
        }
        return longest;
    }

    @Override
    public void close() throws InterruptedException {
        timer.shutdownNow();
        timer.awaitTermination(30, TimeUnit.SECONDS);
    }
}
