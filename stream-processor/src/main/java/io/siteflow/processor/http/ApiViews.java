package io.siteflow.processor.http;

import io.javalin.http.HttpStatus;
import io.siteflow.processor.query.RulesInfo;
import io.siteflow.processor.query.SiteflowQueries;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

    private static final Logger LOG = LoggerFactory.getLogger(ApiViews.class);
    private final AtomicReference<Map.Entry<String, SiteDirectory>> directory = new AtomicReference<>();
    /** The event data of each view that failed at the last {@link #all}, by event name. */
    private final Map<String, String> failing = new ConcurrentHashMap<>();

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

    /**
     * Every view the event stream pushes, by event name, each query run once ({@link TickQueries}): the talkers
     * view is the first {@value #TALKERS_DEFAULT} rows of the links view's talkers (the same rows {@code /api/talkers}
     * answers: both are sorted by the 10 s rate, stably). A view that cannot answer is its {@link ViewFailure} as
     * event data ({@code {"status":503,"error":...}}); the others answer as usual. Never throws for a failing query.
     */
    Map<String, String> all(SiteflowQueries q) {
        Objects.requireNonNull(q, "q");
        SiteflowQueries once = new TickQueries(q);
        Map<String, String> m = new LinkedHashMap<>();
        view(m, "rules", "/api/rules", () -> ApiJson.write(Map.of("version", once.rules().version())));
        view(m, "verdicts", "/api/verdicts", () -> verdicts(once, false));
        view(m, "latest", "/api/verdicts?window=latest", () -> verdicts(once, true));
        view(m, "agents", "/api/agents", () -> agents(once));
        view(m, "alerts", "/api/alerts", () -> alerts(once, ALERTS_DEFAULT));
        view(m, "talkers", "/api/talkers", () -> ApiJson.write(first(once.talkers(false, null, LINK_TALKERS),
                TALKERS_DEFAULT)));
        view(m, "links", "/api/links", () -> links(once));
        return m;
    }

    /** Puts the view's JSON, or why it cannot answer; a failure is logged when it starts or its reason changes. */
    private void view(Map<String, String> m, String event, String path, Supplier<String> json) {
        try {
            m.put(event, json.get());
            if (failing.remove(event) != null) {
                LOG.info("sse: view {} answers again", event);
            }
        } catch (RuntimeException e) {
            ViewFailure f = ViewFailure.of(e, path);
            String data = f.eventJson();
            m.put(event, data);
            if (!data.equals(failing.put(event, data))) {
                if (f.status() == HttpStatus.INTERNAL_SERVER_ERROR) {
                    LOG.error("sse: view {} failed", event, e);
                } else {
                    LOG.warn("sse: view {} cannot answer: {}", event, f.body().get("error"));
                }
            }
        }
    }

    private static <T> List<T> first(List<T> rows, int n) {
        return rows.subList(0, Math.min(n, rows.size()));
    }

    static List<String> eventNames() {
        return List.of("rules", "verdicts", "latest", "agents", "alerts", "talkers", "links");
    }
}
