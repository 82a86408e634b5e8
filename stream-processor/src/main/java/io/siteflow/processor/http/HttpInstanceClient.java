package io.siteflow.processor.http;

import com.fasterxml.jackson.core.type.TypeReference;
import io.siteflow.processor.query.AgentStatus;
import io.siteflow.processor.query.Alert;
import io.siteflow.processor.query.RulesInfo;
import io.siteflow.processor.query.SiteflowQueries;
import io.siteflow.processor.query.TalkerRow;
import io.siteflow.rules.verdict.Verdict;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@link RemoteQueries} over the JDK {@link HttpClient}: each call is a {@code GET} of the other instance's
 * API with {@code scope=local} (and the bearer token when one is set), parsed with {@link ApiJson}.
 * Timeouts: 2 s to connect, 5 s per request. Failures throw {@link RemoteQueryException} naming the URL.
 * Thread-safe.
 */
public final class HttpInstanceClient implements RemoteQueries {
    private static final TypeReference<List<Verdict>> VERDICTS = new TypeReference<>() { };
    private static final TypeReference<List<AgentStatus>> AGENTS = new TypeReference<>() { };
    private static final TypeReference<List<Alert>> ALERTS = new TypeReference<>() { };
    private static final TypeReference<List<TalkerRow>> TALKERS = new TypeReference<>() { };

    private final HttpClient client;
    private final Optional<String> token;

    /** @param token bearer token the other instances require, empty when none */
    public HttpInstanceClient(Optional<String> token) {
        this.token = token;
        this.client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    }

    @Override
    public SiteflowQueries at(Endpoint e) {
        return new SiteflowQueries() {
            @Override
            public List<Verdict> cumulativeVerdicts() {
                return list(e, "/api/verdicts?scope=local", VERDICTS);
            }

            @Override
            public List<Verdict> latestWindows() {
                return list(e, "/api/verdicts?window=latest&scope=local", VERDICTS);
            }

            @Override
            public List<Verdict> windows(long fromMs, long toMs) {
                return list(e, "/api/windows?from=" + fromMs + "&to=" + toMs + "&scope=local", VERDICTS);
            }

            @Override
            public List<AgentStatus> agents() {
                return list(e, "/api/agents?scope=local", AGENTS);
            }

            @Override
            public List<Alert> alerts(int limit) {
                return list(e, "/api/alerts?limit=" + limit + "&scope=local", ALERTS);
            }

            @Override
            public List<TalkerRow> talkers(boolean ports, String category, int limit) {
                String cat = category == null ? "" : "&category=" + URLEncoder.encode(category, StandardCharsets.UTF_8);
                return list(e, "/api/talkers?ports=" + ports + "&limit=" + limit + cat + "&scope=local", TALKERS);
            }

            @Override
            public RulesInfo rules() {
                return one(e, "/api/rules?scope=local", RulesInfo.class);
            }

            @Override
            public String explain(String flow) {
                return one(e, "/api/explain?scope=local&flow=" + URLEncoder.encode(flow, StandardCharsets.UTF_8),
                        ApiViews.Explanation.class).explanation();
            }

            @Override
            public boolean ready() {
                return status(e, "/health") == 200;
            }
        };
    }

    private <T> List<T> list(Endpoint e, String path, TypeReference<List<T>> type) {
        String body = get(e, path);
        try {
            return ApiJson.readList(body, type);
        } catch (IOException x) {
            throw new RemoteQueryException(e.baseUrl() + path + ": unreadable answer: " + x.getMessage(), x);
        }
    }

    private <T> T one(Endpoint e, String path, Class<T> type) {
        String body = get(e, path);
        try {
            return ApiJson.read(body, type);
        } catch (IOException x) {
            throw new RemoteQueryException(e.baseUrl() + path + ": unreadable answer: " + x.getMessage(), x);
        }
    }

    private String get(Endpoint e, String path) {
        HttpResponse<String> r = send(e, path);
        if (r.statusCode() != 200) {
            throw new RemoteQueryException(e.baseUrl() + path + ": HTTP " + r.statusCode());
        }
        return r.body();
    }

    private int status(Endpoint e, String path) {
        return send(e, path).statusCode();
    }

    private HttpResponse<String> send(Endpoint e, String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(e.baseUrl() + path))
                .timeout(Duration.ofSeconds(5)).GET();
        token.ifPresent(t -> b.header("Authorization", "Bearer " + t));
        try {
            return client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException x) {
            throw new RemoteQueryException(e.baseUrl() + path + ": " + x.getMessage(), x);
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            throw new RemoteQueryException(e.baseUrl() + path + ": interrupted", x);
        }
    }
}
