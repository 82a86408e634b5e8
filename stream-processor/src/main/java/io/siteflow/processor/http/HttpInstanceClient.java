package io.siteflow.processor.http;

import com.fasterxml.jackson.core.type.TypeReference;
import io.siteflow.processor.query.InstanceClient;
import io.siteflow.processor.query.StoreView;
import io.siteflow.processor.topology.isolation.EdgeCodec;
import io.siteflow.rules.isolation.HostRtt;
import io.siteflow.rules.isolation.IsolationEdge;
import io.siteflow.processor.query.TalkerRow;
import io.siteflow.processor.topology.Alert;
import io.siteflow.rules.verdict.PairAggregate;
import io.siteflow.rules.verdict.PairAggregateJson;
import io.siteflow.rules.verdict.SitePairRtts;
import io.siteflow.rules.whatif.ServerTraffic;
import io.siteflow.rules.whatif.WhatIfCodec;
import io.siteflow.rules.verdict.VerdictFormatException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.streams.state.HostInfo;

/**
 * {@link InstanceClient} over the JDK {@link HttpClient}: the {@link StoreView} of another instance is read
 * from its internal API ({@code GET /internal/store/...}, served by {@link StoreEndpoints}), with the bearer
 * token when one is set. Timeouts: 2 s to connect, 5 s per request. A failure (no answer, or any status but 200
 * and the 404 of a pair not held there, e.g. the 503 of a task that does not run there now) throws
 * {@link InstanceClient.RemoteQueryException} naming the URL. Thread-safe.
 */
public final class HttpInstanceClient implements InstanceClient {
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() { };
    private static final TypeReference<List<Alert>> ALERTS = new TypeReference<>() { };
    private static final TypeReference<List<TalkerRow>> TALKERS = new TypeReference<>() { };
    private static final TypeReference<List<Long>> BASELINES = new TypeReference<>() { };

    private final HttpClient client;
    private final Supplier<Optional<String>> token;

    /** @param token bearer token the other instances require ({@code --http-token}), empty when none */
    public HttpInstanceClient(Optional<String> token) {
        this(() -> token);
    }

    /** @param token read at each request: the token may become known after the client is made */
    public HttpInstanceClient(Supplier<Optional<String>> token) {
        this.token = token;
        this.client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    }

    /** The last epoch ms the internal API takes: the end of 9999. */
    private static final long LAST_MS = 253_402_300_799_999L;

    @Override
    public StoreView at(HostInfo host) {
        String base = "http://" + (host.host().indexOf(':') >= 0 ? "[" + host.host() + "]" : host.host()) + ":"
                + host.port() + StoreEndpoints.PREFIX;
        return new StoreView() {
            @Override
            public Optional<String> cumulative(String pairKey, int partition) {
                HttpResponse<String> r = send(base + "/cumulative?pair=" + enc(pairKey) + task(partition));
                return r.statusCode() == 404 ? Optional.empty() : Optional.of(body(r));
            }

            @Override
            public boolean observerDrops(String server, int partition) {
                return Boolean.parseBoolean(body(send(base + "/drops?server=" + enc(server) + task(partition))));
            }

            @Override
            public List<Answer> aggregates(List<Ask> asks) {
                String url = base + "/aggregates";
                List<StoreEndpoints.Wire> wires;
                try {
                    wires = ApiJson.readList(body(post(url, ApiJson.write(asks))), StoreEndpoints.WIRES);
                } catch (IOException x) {
                    throw new RemoteQueryException(url + ": unreadable answer: " + x.getMessage(), x);
                }
                if (wires.size() != asks.size()) {
                    throw new RemoteQueryException(url + ": " + wires.size() + " answers to " + asks.size() + " asks", null);
                }
                List<Answer> out = new ArrayList<>(wires.size());
                for (StoreEndpoints.Wire w : wires) {
                    if (w.unavailable() != null) {
                        out.add(Answer.unavailable(w.server(), url + ": " + w.unavailable()));
                        continue;
                    }
                    Map<String, PairAggregate> held = new LinkedHashMap<>();
                    for (Map.Entry<String, String> e : w.aggregates().entrySet()) {
                        try {
                            held.put(e.getKey(), PairAggregateJson.parse(e.getValue().getBytes(StandardCharsets.UTF_8)));
                        } catch (VerdictFormatException x) {
                            throw new RemoteQueryException(url + ": aggregate of " + e.getKey() + ": " + x.getMessage(), x);
                        }
                    }
                    out.add(new Answer(w.server(), held, w.drops(), Optional.empty()));
                }
                return out;
            }

            @Override
            public List<String> latestWindows() {
                return parse(base + "/latest", STRINGS);
            }

            @Override
            public List<String> windows(long fromMs, long toMs) {
                return parse(base + "/windows?from=" + fromMs + "&to=" + toMs, STRINGS);
            }

            @Override
            public List<Alert> alerts(int limit) {
                return parse(base + "/alerts?limit=" + limit, ALERTS);
            }

            @Override
            public List<Long> baselineStarts() {
                return parse(base + "/baselines", BASELINES);
            }

            @Override
            public List<IsolationEdge> isolationEdges(long fromMs, long toMs) {
                // the internal API takes times from 1970 to the end of 9999 (Params.time): an open period is clamped
                String url = base + "/isolation-edges?from=" + Math.max(0, fromMs) + "&to="
                        + Math.min(toMs, LAST_MS);
                List<IsolationEdge> out = new ArrayList<>();
                for (String json : parse(url, STRINGS)) {
                    try {
                        out.add(EdgeCodec.parse(json));
                    } catch (IllegalArgumentException x) {
                        throw new RemoteQueryException(url + ": " + x.getMessage(), x);
                    }
                }
                return out;
            }

            @Override
            public List<HostRtt> isolationRtts() {
                String url = base + "/isolation-rtts";
                List<HostRtt> out = new ArrayList<>();
                for (String json : parse(url, STRINGS)) {
                    try {
                        out.add(EdgeCodec.parseRtt(json));
                    } catch (IllegalArgumentException x) {
                        throw new RemoteQueryException(url + ": " + x.getMessage(), x);
                    }
                }
                return out;
            }

            @Override
            public Optional<ServerTraffic> whatIfTraffic(String address, int partition) {
                String url = base + "/whatif-traffic?server=" + enc(address) + task(partition);
                HttpResponse<String> r = send(url);
                if (r.statusCode() == 404) {
                    return Optional.empty();
                }
                return Optional.of(decode(url, body(r), WhatIfCodec::traffic));
            }

            @Override
            public SitePairRtts whatIfRtts() {
                String url = base + "/whatif-rtts";
                return decode(url, body(send(url)), WhatIfCodec::rtts);
            }

            @Override
            public List<TalkerRow> talkers(boolean ports, String category, int limit) {
                String cat = category == null ? "" : "&category=" + enc(category);
                return parse(base + "/talkers?ports=" + ports + "&limit=" + limit + cat, TALKERS);
            }
        };
    }

    /** A base64 JSON string of codec bytes, read. */
    private static <T> T decode(String url, String json, java.util.function.Function<byte[], T> codec) {
        try {
            return codec.apply(Base64.getDecoder().decode(ApiJson.read(json, String.class)));
        } catch (IOException | IllegalArgumentException x) {
            throw new RemoteQueryException(url + ": unreadable answer: " + x.getMessage(), x);
        }
    }

    private static String task(int partition) {
        return partition == StoreView.ANY_PARTITION ? "" : "&partition=" + partition;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private <T> List<T> parse(String url, TypeReference<List<T>> type) {
        try {
            return ApiJson.readList(body(send(url)), type);
        } catch (IOException x) {
            throw new RemoteQueryException(url + ": unreadable answer: " + x.getMessage(), x);
        }
    }

    private static String body(HttpResponse<String> r) {
        if (r.statusCode() != 200) {
            throw new RemoteQueryException(r.uri() + ": HTTP " + r.statusCode() + " " + r.body(), null);
        }
        return r.body();
    }

    private HttpResponse<String> send(String url) {
        return send(url, HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).GET());
    }

    private HttpResponse<String> post(String url, String json) {
        return send(url, HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8)));
    }

    private HttpResponse<String> send(String url, HttpRequest.Builder b) {
        token.get().ifPresent(t -> b.header("Authorization", "Bearer " + t));
        try {
            return client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException x) {
            throw new RemoteQueryException(url + ": " + x, x);
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            throw new RemoteQueryException(url + ": interrupted", x);
        }
    }
}
