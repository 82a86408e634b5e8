package io.siteflow.processor.http;

import io.siteflow.processor.query.RulesInfo;
import io.siteflow.processor.query.SiteflowQueries;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The JSON of each API view, computed from a {@link SiteflowQueries}: what the endpoints answer and what
 * {@link EventStream} pushes. Keeps the {@link SiteDirectory} of the current rule version (rebuilt when the
 * version changes). Thread-safe.
 */
final class ApiViews {
    /** The body of {@code /api/explain}. */
    record Explanation(String flow, String explanation) {
    }

    /** Default and largest row counts. */
    static final int TALKERS_DEFAULT = 100;
    static final int TALKERS_MAX = 100_000;
    static final int ALERTS_DEFAULT = 100;
    static final int ALERTS_MAX = 10_000;
    /** Talkers the links view sums over. */
    private static final int LINK_TALKERS = 100_000;

    private final AtomicReference<Map.Entry<String, SiteDirectory>> directory = new AtomicReference<>();

    SiteDirectory directory(SiteflowQueries q) {
        RulesInfo r = q.rules();
        Map.Entry<String, SiteDirectory> d = directory.get();
        if (d == null || !d.getKey().equals(r.version() + "\u0000" + r.yaml().length())) {
            d = Map.entry(r.version() + "\u0000" + r.yaml().length(), SiteDirectory.of(r));
            directory.set(d);
        }
        return d.getValue();
    }

    String verdicts(SiteflowQueries q, boolean latest) {
        return ApiJson.write(latest ? q.latestWindows() : q.cumulativeVerdicts());
    }

    String dbSites(SiteflowQueries q) {
        return ApiJson.write(q.dbSites());
    }

    String windows(SiteflowQueries q, long from, long to) {
        return ApiJson.write(q.windows(from, to));
    }

    /** Closed windows in {@code [from, to)}, of one server when {@code server} is not null. */
    String windows(SiteflowQueries q, long from, long to, String server) {
        if (server == null) {
            return windows(q, from, to);
        }
        return ApiJson.write(q.windows(from, to).stream().filter(v -> v.server().equals(server)).toList());
    }

    String trend(SiteflowQueries q, long from, long to) {
        return ApiJson.write(Trend.of(q.windows(from, to)));
    }

    PeriodReport report(SiteflowQueries q, long from, long to) {
        return PeriodReport.of(from, to, q.windows(from, to), directory(q).minCrossBytes());
    }

    String agents(SiteflowQueries q) {
        return ApiJson.write(q.agents());
    }

    String alerts(SiteflowQueries q, int limit) {
        return ApiJson.write(q.alerts(limit));
    }

    String talkers(SiteflowQueries q, boolean ports, String category, int limit) {
        return ApiJson.write(q.talkers(ports, category, limit));
    }

    String alertSettings(SiteflowQueries q) {
        return ApiJson.write(q.alertSettings());
    }

    String rules(SiteflowQueries q) {
        return ApiJson.write(RulesView.of(q.rules(), directory(q)));
    }

    String hosts(SiteflowQueries q) {
        return ApiJson.write(directory(q).hosts());
    }

    String links(SiteflowQueries q) {
        return ApiJson.write(LinkView.of(q.talkers(false, null, LINK_TALKERS), q.sitePairRtts(), directory(q)));
    }

    /** @throws Params.BadRequest when the flow is not in the flow syntax (a 400 naming the parameter) */
    String explain(SiteflowQueries q, String flow) {
        try {
            return ApiJson.write(new Explanation(flow, q.explain(flow)));
        } catch (IllegalArgumentException e) {
            throw new Params.BadRequest("flow: " + e.getMessage());
        }
    }

    /** Every view the event stream pushes, by event name. */
    Map<String, String> all(SiteflowQueries q) {
        Objects.requireNonNull(q, "q");
        Map<String, String> m = new LinkedHashMap<>();
        m.put("rules", ApiJson.write(Map.of("version", q.rules().version())));
        m.put("verdicts", verdicts(q, false));
        m.put("latest", verdicts(q, true));
        m.put("agents", agents(q));
        m.put("alerts", alerts(q, ALERTS_DEFAULT));
        m.put("talkers", talkers(q, false, null, TALKERS_DEFAULT));
        m.put("links", links(q));
        return m;
    }

    static List<String> eventNames() {
        return List.of("rules", "verdicts", "latest", "agents", "alerts", "talkers", "links");
    }
}
