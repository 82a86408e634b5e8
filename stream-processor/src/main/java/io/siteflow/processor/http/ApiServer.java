package io.siteflow.processor.http;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpStatus;
import io.javalin.http.staticfiles.Location;
import io.siteflow.processor.query.InstanceClient;
import io.siteflow.processor.query.OwnersMovingException;
import io.siteflow.processor.query.ProcessorHealth;
import io.siteflow.processor.query.SiteflowQueries;
import io.siteflow.processor.query.StoreView;
import io.siteflow.processor.query.WhatIfSource;
import io.siteflow.rules.isolation.IsolationCsv;
import io.siteflow.rules.isolation.IsolationJson;
import io.siteflow.rules.isolation.IsolationProposal;
import io.siteflow.rules.isolation.IsolationReport;
import io.siteflow.rules.verdict.SitePairRtts;
import io.siteflow.rules.whatif.WhatIf;
import io.siteflow.rules.whatif.WhatIfJson;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP API and dashboard of a stream-processor instance (reference: docs/API.md). Serves the ui-static
 * pages from the classpath ({@code /}), the ECharts WebJar ({@code /webjars/}), a JSON endpoint per view
 * under {@code /api/}, server-sent events ({@code /api/events}), {@code /metrics} (Prometheus text) and
 * {@code /health} (503 until {@link SiteflowQueries#ready()}) and, when given this instance's
 * {@link StoreView}, the internal API other instances read it through ({@link StoreEndpoints},
 * {@link HttpInstanceClient}). With a token, {@code /api/*}, {@code /internal/*} and {@code /metrics} need it.
 * Every path answers only to a {@code Host} that names this server ({@link HostCheck}).
 * Answers 502 when another instance does not answer a list query, 503 while the stores are not queryable
 * (start-up) and 503 naming the keys whose owner is moving ({@link OwnersMovingException}: rebalance, a dead
 * owner, a task still restoring) rather than a wrong or partial number ({@link ViewFailure}); the event stream
 * sends a view that cannot answer as the same body, alone, while the other views go on.
 * Start once, stop once; thread-safe.
 */
public final class ApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
    private static final String JSON = "application/json";
    /** Talkers the link history sums over (as {@code /api/links}). */
    private static final int LINK_HISTORY_TALKERS = 100_000;

    /**
     * @param bind         address to listen on, {@code 127.0.0.1} unless {@code --http-bind} says otherwise
     * @param port         port, 0 for a free one
     * @param token        bearer token for {@code /api/*} and {@code /metrics}, empty for none
     * @param sseIntervalMs how often changed views are pushed
     * @param allowedHosts  names besides the bound address and {@code localhost} that requests may give as
     *                      {@code Host} ({@link HostCheck}: others get 421)
     */
    public record Settings(String bind, int port, Optional<String> token, long sseIntervalMs,
                           List<String> allowedHosts) {
        public Settings {
            Objects.requireNonNull(bind, "bind");
            Objects.requireNonNull(token, "token");
            allowedHosts = List.copyOf(allowedHosts);
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("--http-port must be 0-65535: " + port);
            }
            if (sseIntervalMs <= 0) {
                throw new IllegalArgumentException("sse interval must be positive: " + sseIntervalMs);
            }
        }

        /** Answering only to the bound address, {@code localhost} and the loopback addresses. */
        public Settings(String bind, int port, Optional<String> token, long sseIntervalMs) {
            this(bind, port, token, sseIntervalMs, List.of());
        }

        public static Settings loopback(int port) {
            return new Settings("127.0.0.1", port, Optional.empty(), 2000);
        }
    }

    private final Settings settings;
    private final SiteflowQueries queries;
    private final Supplier<String> metrics;
    private final WhatIfSource whatIf;
    private final ApiViews views = new ApiViews();
    private final EventStream events;
    private final LinkRateHistory linkHistory;
    private final Javalin app;

    /**
     * @param queries answers for the whole cluster (asking other instances itself when it must)
     * @param store   this instance's local stores for the internal API, empty for a single instance
     * @param metrics Prometheus text exposition (e.g. {@code PrometheusMeterRegistry::scrape})
     * @param whatIf  the answers of {@code /api/whatif}
     */
    public ApiServer(Settings settings, SiteflowQueries queries, Optional<StoreView> store, Supplier<String> metrics,
                     WhatIfSource whatIf) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.queries = Objects.requireNonNull(queries, "queries");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.whatIf = Objects.requireNonNull(whatIf, "whatIf");
        this.events = new EventStream(() -> views.all(queries), settings.sseIntervalMs());
        this.linkHistory = new LinkRateHistory(() -> LinkView.of(queries.talkers(false, null, LINK_HISTORY_TALKERS),
                new SitePairRtts(), views.directory(queries)), System::currentTimeMillis);
        this.app = Javalin.create(config -> {
            config.showJavalinBanner = false;
            config.staticFiles.add(sf -> {
                sf.hostedPath = "/";
                sf.directory = "/META-INF/resources/siteflow";
                sf.location = Location.CLASSPATH;
            });
            config.staticFiles.enableWebjars();
        });
        routes();
        store.ifPresent(s -> StoreEndpoints.register(app, s));
    }

    /** A server without {@code /api/whatif} answers (503). */
    public ApiServer(Settings settings, SiteflowQueries queries, Optional<StoreView> store, Supplier<String> metrics) {
        this(settings, queries, store, metrics, WhatIfSource.NONE);
    }

    /** A single-instance server (no internal API). */
    public ApiServer(Settings settings, SiteflowQueries queries, Supplier<String> metrics) {
        this(settings, queries, Optional.empty(), metrics);
    }

    private void routes() {
        app.before(new HostCheck(settings.bind(), settings.allowedHosts()));
        app.before(ctx -> {
            ctx.header("X-Content-Type-Options", "nosniff");
            ctx.header("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                    + "img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'");
        });
        settings.token().ifPresent(t -> {
            BearerAuth auth = new BearerAuth(t);
            app.before("/api/*", auth);
            app.before("/internal/*", auth);
            app.before("/metrics", auth);
        });
        app.get("/api/verdicts", ctx -> json(ctx, views.verdicts(queries, Params.latest(ctx))));
        app.get("/api/dbsites", ctx -> json(ctx, views.dbSites(queries)));
        app.get("/api/windows", ctx -> json(ctx, views.windows(queries, Params.time(ctx, "from"), Params.time(ctx, "to"),
                ctx.queryParam("server"))));
        app.get("/api/trend", ctx -> json(ctx, views.trend(queries, Params.time(ctx, "from"), Params.time(ctx, "to"))));
        app.get("/api/report", this::report);
        app.get("/api/agents", ctx -> json(ctx, views.agents(queries)));
        app.get("/api/alerts", ctx -> json(ctx, views.alerts(queries,
                Params.integer(ctx, "limit", ApiViews.ALERTS_DEFAULT, 0, ApiViews.ALERTS_MAX))));
        app.get("/api/alert-settings", ctx -> json(ctx, views.alertSettings(queries)));
        app.get("/api/talkers", ctx -> json(ctx, views.talkers(queries, Params.flag(ctx, "ports"),
                Params.category(ctx), Params.integer(ctx, "limit", ApiViews.TALKERS_DEFAULT, 0, ApiViews.TALKERS_MAX))));
        app.get("/api/rules", ctx -> json(ctx, views.rules(queries)));
        app.get("/api/hosts", ctx -> json(ctx, views.hosts(queries)));
        app.get("/api/links", ctx -> json(ctx, views.links(queries)));
        app.get("/api/links/history", ctx -> json(ctx, ApiJson.write(linkHistory.history())));
        app.get("/api/explain", ctx -> json(ctx, views.explain(queries, Params.text(ctx, "flow"))));
        app.get("/api/dbcalls", ctx -> json(ctx, ApiJson.write(DbCallView.of(queries.dbCallHistograms()))));
        app.get("/api/whatif", ctx -> json(ctx, whatIf(Params.text(ctx, "server"), Params.text(ctx, "site"))));
        app.get("/api/isolation", ctx -> json(ctx, IsolationJson.write(IsolationView.report(queries,
                IsolationView.period(ctx, true)))));
        app.get("/api/isolation/report", this::isolationReport);
        app.get("/api/isolation/propose", this::isolationProposal);
        app.sse("/api/events", events::connect);
        app.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.get()));
        app.get("/health", this::health);
        app.exception(Params.BadRequest.class, (e, ctx) -> error(ctx, HttpStatus.BAD_REQUEST, e.getMessage()));
        app.exception(IsolationView.NoPolicy.class, (e, ctx) -> error(ctx, HttpStatus.NOT_FOUND, e.getMessage()));
        app.exception(IsolationView.NoModel.class, (e, ctx) -> error(ctx, HttpStatus.SERVICE_UNAVAILABLE, e.getMessage()));
        // a view that cannot answer says why, as its event on /api/events does (ViewFailure)
        app.exception(InstanceClient.RemoteQueryException.class, this::failed);
        app.exception(OwnersMovingException.class, this::failed);
        app.exception(WhatIfSource.Unavailable.class, this::failed);
        app.exception(InvalidStateStoreException.class, this::failed);
    }

    /**
     * 200 {@code {"status":"UP"}} while Kafka Streams runs, 503 {@code {"status":"STARTING"}} before it first ran and
     * 503 {@code {"status":"DOWN","reason":"..."}} while it is neither RUNNING nor REBALANCING
     * ({@link SiteflowQueries#health()}); with {@code "siteModel": "..."} saying why the newest site model is not in
     * force (the processor runs on with the last good one, so the status stays).
     */
    private void health(Context ctx) {
        ProcessorHealth h = queries.health();
        boolean up = h.up();
        Map<String, Object> body = new java.util.LinkedHashMap<>();
        body.put("status", h.status().name());
        h.reason().ifPresent(r -> body.put("reason", r));
        if (up) { // the site model's store cannot be read while Kafka Streams is not running
            queries.siteModelProblem().ifPresent(p -> body.put("siteModel", p));
        }
        ctx.status(up ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).contentType(JSON).result(ApiJson.write(body));
    }

    /** The what-if JSON (docs/RULES.md "What-if"); a 400 naming the parameter for a name the model lacks. */
    private String whatIf(String server, String site) {
        try {
            return WhatIfJson.toJson(whatIf.whatIf(server, site));
        } catch (WhatIf.UnknownName e) {
            throw new Params.BadRequest(e.parameter() + ": " + Params.quote(e.name()) + " is not a "
                    + (e.parameter().equals("server") ? "host" : "site") + " of the site model in force");
        }
    }

    private void report(Context ctx) {
        PeriodReport r = views.report(queries, Params.time(ctx, "from"), Params.time(ctx, "to"));
        String format = Optional.ofNullable(ctx.queryParam("format")).orElse("json");
        switch (format) {
            case "json" -> json(ctx, ApiJson.write(r));
            case "csv" -> ctx.contentType("text/csv; charset=utf-8")
                    .header("Content-Disposition", "attachment; filename=\"siteflow-report-" + r.from() + "-" + r.to() + ".csv\"")
                    .result(ReportCsv.write(r));
            default -> throw new Params.BadRequest("format: \"" + format + "\" is not json or csv");
        }
    }

    /** The auditor's report of a period ({@code from} and {@code to} required) as JSON or CSV. */
    private void isolationReport(Context ctx) {
        IsolationView.Period p = IsolationView.period(ctx, false);
        String format = Optional.ofNullable(ctx.queryParam("format")).orElse("json");
        if (!format.equals("json") && !format.equals("csv")) {
            throw new Params.BadRequest("format: " + Params.quote(format) + " is not json or csv");
        }
        IsolationReport r = IsolationView.report(queries, p);
        if (format.equals("json")) {
            json(ctx, IsolationJson.write(r));
            return;
        }
        ctx.contentType("text/csv; charset=utf-8").header("Content-Disposition", "attachment; filename=\"siteflow-isolation-"
                + p.from() + "-" + p.to() + ".csv\"").result(IsolationCsv.render(r));
    }

    /** The isolation: block that allows exactly the edges of a period (every edge with at least minFlows flows). */
    private void isolationProposal(Context ctx) {
        IsolationView.Period p = IsolationView.period(ctx, true);
        int minFlows = Params.integer(ctx, "minFlows", 1, 1, IsolationView.MAX_MIN_FLOWS);
        ctx.contentType("text/yaml; charset=utf-8")
                .result(IsolationProposal.propose(IsolationView.inputs(queries, p), minFlows));
    }

    /**
     * The status and body of {@link ViewFailure#of}: 502 when another instance did not answer, 503 while stores are
     * not queryable, 503 with {@code Retry-After: 1} naming the keys whose owner is moving ({@code error},
     * {@code reason}, {@code unavailable} and, on {@code /api/verdicts}, {@code verdicts}: the cumulative verdicts of
     * the servers that were answered), 503 without a what-if source.
     */
    private void failed(RuntimeException e, Context ctx) {
        ViewFailure f = ViewFailure.of(e, ctx.path());
        if (!(e instanceof OwnersMovingException) && !(e instanceof InvalidStateStoreException)) {
            LOG.warn("api: {}", e.getMessage());
        }
        if (f.retryAfter()) {
            ctx.header("Retry-After", "1");
        }
        ctx.status(f.status()).contentType(JSON).result(f.json());
    }

    private static void json(Context ctx, String body) {
        ctx.contentType(JSON).result(body);
    }

    private static void error(Context ctx, HttpStatus status, String message) {
        ctx.status(status).contentType(JSON).result(ApiJson.write(Map.of("error", message)));
    }

    /** Starts listening. @return this */
    public ApiServer start() {
        app.start(settings.bind(), settings.port());
        linkHistory.start(queries.ready());
        LOG.info("api: listening on http://{}:{} (token {})", settings.bind(), port(),
                settings.token().isPresent() ? "required" : "not required");
        return this;
    }

    /** The port it listens on (the real one when 0 was asked). */
    public int port() {
        return app.port();
    }

    /**
     * The paths answered with GET as Javalin's router holds them, in registration order: the endpoints under
     * {@code /api/} (with {@code /api/events}), {@code /metrics}, {@code /health} and, with a store, the
     * internal API; static files are not routes. What docs/openapi.yaml must list (OpenApiDocumentTest).
     */
    List<String> paths() {
        return app.unsafeConfig().pvt.internalRouter.allHttpHandlers().stream().map(e -> e.getEndpoint())
                .filter(e -> e.getMethod() == HandlerType.GET).map(e -> e.getPath()).toList();
    }

    /** How many clients hold {@code /api/events} open now (a page with {@code ?live=0} holds none). */
    public int eventClients() {
        return events.clientCount();
    }

    /** Base URL of this server, e.g. {@code http://127.0.0.1:8080}. */
    public String url() {
        String h = settings.bind().indexOf(':') >= 0 ? "[" + settings.bind() + "]" : settings.bind();
        return "http://" + h + ":" + port();
    }

    @Override
    public void close() {
        events.close();
        linkHistory.close();
        app.stop();
    }
}
