package io.siteflow.processor.http;

import com.fasterxml.jackson.core.type.TypeReference;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.siteflow.processor.query.StoreView;
import io.siteflow.processor.topology.isolation.EdgeCodec;
import io.siteflow.rules.verdict.PairAggregateJson;
import io.siteflow.rules.whatif.WhatIfCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The internal API through which other instances read this instance's {@link StoreView}
 * ({@link HttpInstanceClient} is the client): {@code GET /internal/store/cumulative?pair=K&partition=P} (the
 * aggregate JSON, 404 when not held here; 503 when the task of partition {@code P} does not run here now, so that
 * a moving key is never answered as empty; without {@code partition} any task held here),
 * {@code /drops?server=S&partition=P} ({@code true|false}), {@code /latest} and
 * {@code /windows?from&to} (JSON arrays of verdict JSON <em>strings</em>, so numbers travel unchanged),
 * {@code /alerts?limit}, {@code /talkers?ports&category&limit}, {@code /baselines} (epoch ms),
 * {@code /isolation-edges?from&to} (the isolation edges of the windows starting in [from, to), JSON strings of
 * {@code EdgeCodec}) and {@code /isolation-rtts} (the RTT entries, JSON strings), and
 * {@code POST /internal/store/aggregates} with a JSON array of {@link StoreView.Ask}
 * ({@code [{"server":"10.2.0.20","partition":1,"keys":["10.2.0.20|region1"],"drops":true}]}): the cumulative
 * aggregates and drops of many servers in one request, a {@link Wire} per ask in the order asked (aggregates as JSON
 * strings; {@code unavailable} instead when the task of that partition does not run here now). Not for people;
 * same token as {@code /api}.
 */
final class StoreEndpoints {
    static final String PREFIX = "/internal/store";
    static final TypeReference<List<StoreView.Ask>> ASKS = new TypeReference<>() { };
    static final TypeReference<List<Wire>> WIRES = new TypeReference<>() { };

    /**
     * One {@link StoreView.Answer} as it travels: the aggregates as their JSON text, so that numbers arrive
     * unchanged, {@code unavailable} null when the task answered.
     */
    record Wire(String server, Map<String, String> aggregates, boolean drops, String unavailable) {
        static Wire of(StoreView.Answer a) {
            Map<String, String> json = new LinkedHashMap<>();
            a.aggregates().forEach((k, v) -> json.put(k, new String(PairAggregateJson.toBytes(v), StandardCharsets.UTF_8)));
            return new Wire(a.server(), json, a.drops(), a.unavailable().orElse(null));
        }
    }

    private StoreEndpoints() {
    }

    static void register(Javalin app, StoreView store) {
        app.get(PREFIX + "/cumulative", ctx -> {
            String pair = Params.text(ctx, "pair");
            store.cumulative(pair, partition(ctx)).ifPresentOrElse(json -> json(ctx, json), () -> ctx.status(HttpStatus.NOT_FOUND)
                    .contentType("application/json").result(ApiJson.write(Map.of("error", "no aggregate for " + pair))));
        });
        app.post(PREFIX + "/aggregates", ctx -> {
            List<StoreView.Ask> asks;
            try {
                asks = ApiJson.readList(ctx.body(), ASKS);
            } catch (IOException e) {
                throw new Params.BadRequest("aggregates: not a JSON array of asks: " + e.getMessage());
            }
            json(ctx, ApiJson.write(store.aggregates(asks).stream().map(Wire::of).toList()));
        });
        app.get(PREFIX + "/drops", ctx -> json(ctx, Boolean.toString(store.observerDrops(Params.text(ctx, "server"),
                partition(ctx)))));
        app.get(PREFIX + "/latest", ctx -> json(ctx, ApiJson.write(store.latestWindows())));
        app.get(PREFIX + "/windows", ctx -> json(ctx, ApiJson.write(store.windows(Params.time(ctx, "from"),
                Params.time(ctx, "to")))));
        app.get(PREFIX + "/alerts", ctx -> json(ctx, ApiJson.write(store.alerts(
                Params.integer(ctx, "limit", ApiViews.ALERTS_DEFAULT, 0, ApiViews.ALERTS_MAX)))));
        app.get(PREFIX + "/isolation-edges", ctx -> json(ctx, ApiJson.write(store.isolationEdges(
                Params.time(ctx, "from"), Params.time(ctx, "to")).stream().map(EdgeCodec::toJson).toList())));
        app.get(PREFIX + "/isolation-rtts", ctx -> json(ctx, ApiJson.write(store.isolationRtts().stream()
                .map(EdgeCodec::toJson).toList())));
        app.get(PREFIX + "/whatif-traffic", ctx -> {
            String server = Params.text(ctx, "server");
            store.whatIfTraffic(server, partition(ctx)).ifPresentOrElse(t -> json(ctx, ApiJson.write(
                    Base64.getEncoder().encodeToString(WhatIfCodec.toBytes(t)))), () -> ctx.status(HttpStatus.NOT_FOUND)
                    .contentType("application/json").result(ApiJson.write(Map.of("error", "no what-if inputs for "
                            + server))));
        });
        app.get(PREFIX + "/whatif-rtts", ctx -> json(ctx, ApiJson.write(Base64.getEncoder().encodeToString(
                WhatIfCodec.toBytes(store.whatIfRtts())))));
        app.get(PREFIX + "/baselines", ctx -> json(ctx, ApiJson.write(store.baselineStarts())));
        app.get(PREFIX + "/talkers", ctx -> json(ctx, ApiJson.write(store.talkers(Params.flag(ctx, "ports"),
                Params.category(ctx), Params.integer(ctx, "limit", ApiViews.TALKERS_DEFAULT, 0, ApiViews.TALKERS_MAX)))));
    }

    private static int partition(Context ctx) {
        return Params.integer(ctx, "partition", StoreView.ANY_PARTITION, StoreView.ANY_PARTITION, Integer.MAX_VALUE);
    }

    private static void json(Context ctx, String body) {
        ctx.contentType("application/json").result(body);
    }
}
