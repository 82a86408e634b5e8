package io.siteflow.processor.query;

import io.siteflow.processor.topology.ActiveModel;
import io.siteflow.processor.topology.Alert;
import io.siteflow.model.wire.Heartbeat;
import io.siteflow.processor.topology.ModelCache;
import io.siteflow.processor.topology.ObserverDrops;
import io.siteflow.rules.classify.FlowSyntax;
import io.siteflow.rules.isolation.HostRtt;
import io.siteflow.rules.isolation.IsolationEdge;
import io.siteflow.rules.isolation.IsolationEvaluator;
import io.siteflow.rules.isolation.IsolationInputs;
import io.siteflow.rules.isolation.Unverified;
import io.siteflow.rules.verdict.Window;
import java.time.Instant;
import java.util.TreeMap;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.verdict.AuditPair;
import io.siteflow.rules.verdict.DbSiteComparison;
import io.siteflow.rules.verdict.DbSiteEnds;
import io.siteflow.rules.verdict.DbSites;
import io.siteflow.rules.verdict.PairAggregate;
import io.siteflow.rules.verdict.SitePairRtts;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.VerdictCalculator;
import io.siteflow.processor.topology.TopologyConfig;
import io.siteflow.processor.topology.TopologySpec;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;

/**
 * {@link SiteflowQueries} over the topology's state stores. Per-pair answers (cumulative verdicts) go to the
 * instance that owns the server's task ({@link Cluster#owner}), reading that task's stores only; list answers
 * ask every instance and merge. The cumulative verdict of a pair no instance holds yet is computed from an empty aggregate
 * (INSUFFICIENT), as the offline audit does. Thread-safe.
 *
 * <p>Failures: {@link OwnersMovingException}, the one answer for keys whose owner is moving, from every query that
 * reads a key's owner ({@link #cumulativeVerdicts}, {@link #dbCallHistograms}, {@link #dbSites}), naming each such
 * key with what could be answered for the others; for the list queries (which ask every instance)
 * {@code org.apache.kafka.streams.errors.InvalidStateStoreException} while this instance's stores are not
 * queryable (start-up, rebalance) and {@link InstanceClient.RemoteQueryException} when another instance does not
 * answer;
 * {@link #explain} throws {@link IllegalArgumentException} for a flow that is not in the flow syntax.
 */
public final class StreamsQueries implements SiteflowQueries {
    private static final Comparator<Verdict> BY_PAIR = Comparator.comparing(Verdict::server)
            .thenComparing(Verdict::remoteSite);
    private final LocalStoreView local;
    private final Cluster cluster;
    private final InstanceClient client;
    private final ModelCache models;
    private final BooleanSupplier ready;
    private final java.util.function.Supplier<ProcessorHealth> health;
    private final Clock clock;
    private final Duration baseline;
    private final Duration alertRepeat;
    /** The topology's window size: the isolation edges are kept per window. */
    private final Duration window;
    /** The isolation evaluator of the last model asked with. */
    private final Evaluators evaluators = new Evaluators();
    /** The latest window verdicts by their stored JSON, parsed once: room for 4,096 pairs or 16 M characters. */
    private final VerdictCache latest = new VerdictCache(4096, 16L << 20);

    /** @param config the topology's settings (the alert baseline and repeat interval) */
    public StreamsQueries(LocalStoreView local, Cluster cluster, InstanceClient client, ModelCache models,
                          BooleanSupplier ready, Clock clock, TopologyConfig config) {
        this(local, cluster, client, models, ready, clock, config,
                () -> ready.getAsBoolean() ? ProcessorHealth.UP : ProcessorHealth.starting(null));
    }

    /**
     * @param config the topology's settings (the alert baseline and repeat interval)
     * @param health what {@code /health} says ({@link #health()})
     */
    public StreamsQueries(LocalStoreView local, Cluster cluster, InstanceClient client, ModelCache models,
                          BooleanSupplier ready, Clock clock, TopologyConfig config,
                          java.util.function.Supplier<ProcessorHealth> health) {
        this.health = health;
        this.baseline = config.baseline();
        this.alertRepeat = config.alertRepeat();
        this.window = config.window();
        this.local = local;
        this.cluster = cluster;
        this.client = client;
        this.models = models;
        this.ready = ready;
        this.clock = clock;
    }

    /** The view of this instance's stores (what an internal API endpoint serves to other instances). */
    public LocalStoreView local() {
        return local;
    }

    /**
     * {@inheritDoc}
     *
     * @throws OwnersMovingException when the owner of some server's task is moving (no owner during a rebalance,
     *         an owner that does not answer, a task still restoring here or there), with the verdicts of the others
     */
    @Override
    public List<Verdict> cumulativeVerdicts() {
        Optional<ActiveModel> m = model();
        if (m.isEmpty()) {
            return List.of();
        }
        Map<Host, List<AuditPair>> byServer = pairsByServer(m.get());
        Map<String, StoreView.Answer> answers = readPairs(m.get(), byServer, true);
        List<Verdict> out = new ArrayList<>();
        List<OwnersMovingException.Unavailable> moving = new ArrayList<>();
        byServer.forEach((server, pairs) -> {
            StoreView.Answer a = answers.get(server.address());
            if (a.unavailable().isPresent()) {
                moving.add(OwnersMovingException.Unavailable.of(server, a.unavailable().get()));
                return;
            }
            for (AuditPair p : pairs) {
                PairAggregate agg = a.aggregates().get(m.get().keyOf(p).encoded());
                out.add(cumulative(m.get(), p, agg == null ? new PairAggregate() : agg, a.drops()));
            }
        });
        out.sort(BY_PAIR);
        if (!moving.isEmpty()) {
            throw new OwnersMovingException("verdicts", "audited servers", moving, out, byServer.size());
        }
        return out;
    }

    /** The model's audited pairs by server, in the model's order. */
    private static Map<Host, List<AuditPair>> pairsByServer(ActiveModel m) {
        Map<Host, List<AuditPair>> out = new LinkedHashMap<>();
        m.pairs().forEach(p -> out.computeIfAbsent(p.server(), s -> new ArrayList<>()).add(p));
        return out;
    }

    /** {@link #read} of each server's pair aggregates (and, with {@code drops}, its observer's drops). */
    private Map<String, StoreView.Answer> readPairs(ActiveModel m, Map<Host, List<AuditPair>> byServer, boolean drops) {
        List<Want> wants = new ArrayList<>();
        byServer.forEach((server, pairs) -> wants.add(new Want(server.address(),
                pairs.stream().map(p -> m.keyOf(p).encoded()).toList(), drops)));
        return read(wants);
    }

    /** What to read of one server (or database): its aggregates {@code keys}, and its observer's drops. */
    private record Want(String server, List<String> keys, boolean drops) {
    }

    /**
     * The answers to {@code wants} by server, each read where the server's task runs: from this instance's stores
     * directly, from another instance's in one request for all its servers ({@link StoreView#aggregates}). A server
     * whose owner is moving, whose task is not running here yet, or whose owner cannot answer gets an
     * {@link StoreView.Answer#unavailable} saying so. On a single instance a store that is not queryable is not a
     * moving owner: the {@code InvalidStateStoreException} goes up.
     */
    private Map<String, StoreView.Answer> read(List<Want> wants) {
        Map<String, StoreView.Answer> out = new LinkedHashMap<>();
        Map<HostInfo, List<StoreView.Ask>> there = new LinkedHashMap<>();
        for (Want w : wants) {
            Cluster.Owner owner = cluster.owner(w.server());
            if (owner instanceof Cluster.Moving moving) {
                out.put(w.server(), StoreView.Answer.unavailable(w.server(), moving.reason()));
            } else if (owner instanceof Cluster.At at) {
                there.computeIfAbsent(at.host(), h -> new ArrayList<>())
                        .add(new StoreView.Ask(w.server(), at.partition(), w.keys(), w.drops()));
            } else {
                int partition = ((Cluster.Here) owner).partition();
                try {
                    out.put(w.server(), local.answer(new StoreView.Ask(w.server(), partition, w.keys(), w.drops())));
                } catch (InvalidStateStoreException e) {
                    if (partition == StoreView.ANY_PARTITION) {
                        throw e;
                    }
                    out.put(w.server(), StoreView.Answer.unavailable(w.server(), "its task (partition " + partition
                            + ") is not running on this instance yet (restoring its state or rebalancing): "
                            + e.getMessage()));
                }
            }
        }
        there.forEach((host, asks) -> {
            String who = "its owner " + host.host() + ":" + host.port() + " cannot answer: ";
            try {
                for (StoreView.Answer a : client.at(host).aggregates(asks)) {
                    out.put(a.server(), a.unavailable().isEmpty() ? a
                            : StoreView.Answer.unavailable(a.server(), who + a.unavailable().get()));
                }
            } catch (InstanceClient.RemoteQueryException e) {
                asks.forEach(a -> out.put(a.server(), StoreView.Answer.unavailable(a.server(), who + e.getMessage())));
            }
        });
        return out;
    }

    /**
     * {@inheritDoc}
     *
     * <p>The edges of the windows overlapping {@code [fromMs, toMs)} (the topology's window size), read on every
     * instance and merged per edge ({@link IsolationEdge#plus}, the evidence of the edge's earliest part); the RTT
     * entries of every task merged per {@code address|peerSite}; the observers that were silent in the period (a
     * gap between two heartbeats longer than {@link AgentStatus#SILENT_AFTER_MS}, recorded by the global agents
     * store, or no heartbeat for that long before the period's end or now) or whose last heartbeat reports drops
     * above 0.1% of its packets ({@link #unverified}).
     *
     * @throws OwnersMovingException when another instance does not answer, with the edges of the others
     */
    @Override
    public Optional<IsolationInputs> isolation(long fromMs, long toMs) {
        Optional<ActiveModel> m = model();
        if (m.isEmpty()) {
            return Optional.empty();
        }
        long windowMs = window.toMillis();
        long startFrom = fromMs <= Long.MIN_VALUE + windowMs ? Long.MIN_VALUE : Window.of(fromMs, windowMs).start();
        Map<String, IsolationEdge> edges = new TreeMap<>();
        Map<String, HostRtt> rtts = new TreeMap<>();
        List<OwnersMovingException.Unavailable> moving = new ArrayList<>();
        Map<String, StoreView> views = new LinkedHashMap<>();
        views.put("this instance", local);
        cluster.others().forEach(h -> views.put(h.host() + ":" + h.port(), client.at(h)));
        views.forEach((at, v) -> {
            try {
                for (IsolationEdge e : v.isolationEdges(startFrom, toMs)) {
                    edges.merge(e.partKey(), e, (a, b) -> a.firstSeenMs() <= b.firstSeenMs() ? a.plus(b) : b.plus(a));
                }
                v.isolationRtts().forEach(r -> rtts.merge(r.key(), r, HostRtt::plus));
            } catch (InstanceClient.RemoteQueryException e) {
                moving.add(new OwnersMovingException.Unavailable(at, at, "instance " + at + " cannot answer: "
                        + e.getMessage()));
            }
        });
        if (!moving.isEmpty()) {
            throw new OwnersMovingException("isolation edges", "instances", moving, List.copyOf(edges.values()),
                    views.size());
        }
        return Optional.of(new IsolationInputs(evaluators.of(m.get()), fromMs, toMs, List.copyOf(edges.values()),
                unverified(m.get(), fromMs, toMs), List.copyOf(rtts.values())));
    }

    /**
     * The observers that cannot be trusted in {@code [fromMs, toMs)}, by agent id: silent in the period (a recorded
     * gap between heartbeats overlapping it; or its last heartbeat more than {@link AgentStatus#SILENT_AFTER_MS}
     * before the period's end, or now when that is earlier, and before the period's end), or dropping more than 0.1%
     * of its packets (its last heartbeat, totals since the agent started, as the verdicts' drop check). A host
     * agent (its id is a host name of the model) covers its host's address; any other agent every pair.
     */
    private List<Unverified> unverified(ActiveModel m, long fromMs, long toMs) {
        long now = clock.millis();
        long end = Math.min(toMs, now);
        Map<String, List<String>> reasons = new TreeMap<>();
        for (LocalStoreView.Silence s : local.silences()) {
            if (s.fromMs() < toMs && s.toMs() > fromMs) {
                reasons.computeIfAbsent(s.agent(), a -> new ArrayList<>()).add("silent from "
                        + Instant.ofEpochMilli(s.fromMs()) + " to " + Instant.ofEpochMilli(s.toMs()));
            }
        }
        for (String json : local.heartbeats()) {
            Optional<AgentStatus> a = AgentStatus.of(json, now);
            if (a.isEmpty()) {
                continue;
            }
            AgentStatus st = a.get();
            if (st.lastSeenMs() < toMs && end - st.lastSeenMs() > AgentStatus.SILENT_AFTER_MS) {
                reasons.computeIfAbsent(st.agent(), x -> new ArrayList<>()).add("silent since "
                        + Instant.ofEpochMilli(st.lastSeenMs()));
            }
            Heartbeat.parse(json).flatMap(ObserverDrops::reason).ifPresent(why ->
                    reasons.computeIfAbsent(st.agent(), x -> new ArrayList<>()).add(why));
        }
        List<Unverified> out = new ArrayList<>();
        reasons.forEach((agent, why) -> out.add(new Unverified(agent, m.model().hosts().stream()
                .filter(h -> h.name().equals(agent)).map(Host::address).findFirst(), String.join("; ", why))));
        return out;
    }

    /**
     * The site-pair RTT of the audited pairs' cumulative aggregates, read where each server's task runs.
     *
     * @throws OwnersMovingException when some server's owner is moving or cannot answer
     */
    @Override
    public SitePairRtts sitePairRtts() {
        Optional<ActiveModel> m = model();
        if (m.isEmpty()) {
            return new SitePairRtts();
        }
        Map<Host, List<AuditPair>> byServer = pairsByServer(m.get());
        Map<String, StoreView.Answer> answers = readPairs(m.get(), byServer, false);
        Map<AuditPair, PairAggregate> aggregates = new LinkedHashMap<>();
        List<OwnersMovingException.Unavailable> moving = new ArrayList<>();
        byServer.forEach((server, pairs) -> {
            StoreView.Answer a0 = answers.get(server.address());
            if (a0.unavailable().isPresent()) {
                moving.add(OwnersMovingException.Unavailable.of(server, a0.unavailable().get()));
                return;
            }
            for (AuditPair p : pairs) {
                PairAggregate a = answers.get(server.address()).aggregates().get(m.get().keyOf(p).encoded());
                if (a != null) {
                    aggregates.put(p, a);
                }
            }
        });
        if (!moving.isEmpty()) { // a site pair's RTT without some of its servers would be another figure
            throw new OwnersMovingException("site-pair RTTs", "audited servers", moving, List.of(), byServer.size());
        }
        return SitePairRtts.ofAudited(aggregates);
    }

    /**
     * The call-time histograms, read where each server's task runs.
     *
     * @throws OwnersMovingException when the owner of some server's task is moving, with the histograms of the others
     */
    @Override
    public List<DbCallHistogram> dbCallHistograms() {
        Optional<ActiveModel> m = model();
        if (m.isEmpty()) {
            return List.of();
        }
        Map<Host, List<AuditPair>> byServer = pairsByServer(m.get());
        Map<String, StoreView.Answer> answers = readPairs(m.get(), byServer, false);
        List<DbCallHistogram> out = new ArrayList<>();
        List<OwnersMovingException.Unavailable> moving = new ArrayList<>();
        byServer.forEach((server, pairs) -> {
            StoreView.Answer answer = answers.get(server.address());
            if (answer.unavailable().isPresent()) {
                moving.add(OwnersMovingException.Unavailable.of(server, answer.unavailable().get()));
                return;
            }
            for (AuditPair p : pairs) {
                PairAggregate a = answer.aggregates().get(m.get().keyOf(p).encoded());
                if (a != null && !a.dbCalls().histogram().isEmpty()) {
                    out.add(new DbCallHistogram(server.address(), p.remoteSite().name(), a.dbCalls().histogram()));
                }
            }
        });
        out.sort(Comparator.comparing(DbCallHistogram::server).thenComparing(DbCallHistogram::remoteSite));
        if (!moving.isEmpty()) {
            throw new OwnersMovingException("DB call histograms", "audited servers", moving, out, byServer.size());
        }
        return out;
    }

    /**
     * The aggregates of every (database, app server) of the model, from the task of the database's address,
     * folded into {@link DbSites} as the offline audit folds its records.
     *
     * @throws OwnersMovingException when the owner of some database's task is moving, naming it and why, with the
     *         comparisons of the other databases
     */
    @Override
    public List<DbSiteComparison> dbSites() {
        Optional<ActiveModel> m = model();
        if (m.isEmpty()) {
            return List.of();
        }
        DbSiteEnds ends = m.get().dbSiteEnds();
        DbSites sites = new DbSites(ends);
        List<Want> wants = new ArrayList<>();
        for (String database : ends.databases().keySet()) {
            wants.add(new Want(database, ends.servers().keySet().stream()
                    .map(server -> TopologySpec.dbSiteKey(database, server)).toList(), false));
        }
        Map<String, StoreView.Answer> answers = read(wants);
        List<OwnersMovingException.Unavailable> moving = new ArrayList<>();
        ends.databases().forEach((database, host) -> {
            StoreView.Answer a = answers.get(database);
            if (a.unavailable().isPresent()) {
                moving.add(OwnersMovingException.Unavailable.of(host, a.unavailable().get()));
                return;
            }
            for (String server : ends.servers().keySet()) {
                PairAggregate agg = a.aggregates().get(TopologySpec.dbSiteKey(database, server));
                if (agg != null) {
                    sites.add(database, server, agg);
                }
            }
        });
        if (!moving.isEmpty()) {
            throw new OwnersMovingException("DB site comparisons", "databases", moving, sites.comparisons(),
                    ends.databases().size());
        }
        return sites.comparisons();
    }

    /** The cumulative verdict of a pair from its aggregate, as the offline audit computes it. */
    public static Verdict cumulative(ActiveModel m, AuditPair p, PairAggregate agg, boolean drops) {
        return VerdictCalculator.verdict(m.model(), p, agg, Optional.empty(), drops);
    }

    @Override
    public List<Verdict> latestWindows() {
        List<Verdict> out = verdicts(StoreView::latestWindows, latest::verdict);
        out.sort(BY_PAIR);
        return out;
    }

    @Override
    public List<Verdict> windows(long fromMs, long toMs) {
        List<Verdict> out = verdicts(v -> v.windows(fromMs, toMs), VerdictCache::parse);
        out.sort(Comparator.comparingLong((Verdict v) -> v.window().orElseThrow().start()).thenComparing(BY_PAIR));
        return out;
    }

    @Override
    public List<AgentStatus> agents() {
        long now = clock.millis();
        return local.heartbeats().stream().map(h -> AgentStatus.of(h, now)).flatMap(Optional::stream)
                .sorted(Comparator.comparing(AgentStatus::agent)).toList();
    }

    @Override
    public List<Alert> alerts(int limit) {
        List<Alert> all = new ArrayList<>();
        views().forEach(v -> all.addAll(v.alerts(limit)));
        all.sort(Comparator.comparingLong(Alert::timeMs).reversed().thenComparing(Alert::key));
        return all.subList(0, Math.min(Math.max(limit, 0), all.size()));
    }

    @Override
    public List<TalkerRow> talkers(boolean ports, String category, int limit) {
        List<TalkerRow> all = new ArrayList<>();
        views().forEach(v -> all.addAll(v.talkers(ports, category, limit)));
        all.sort(Comparator.comparingDouble((TalkerRow r) -> r.out10s() + r.in10s()).reversed());
        return all.subList(0, Math.min(Math.max(limit, 0), all.size()));
    }

    @Override
    public AlertSettings alertSettings() {
        long start = views().stream().flatMap(v -> v.baselineStarts().stream()).mapToLong(Long::longValue).max()
                .orElse(Long.MIN_VALUE);
        return new AlertSettings(baseline.toMillis(), start == Long.MIN_VALUE ? -1 : start + baseline.toMillis(),
                alertRepeat.toMillis());
    }

    @Override
    public RulesInfo rules() {
        return model().map(m -> new RulesInfo(m.model().version(), m.yaml(), m.loadedMs()))
                .orElse(new RulesInfo("none", "", 0));
    }

    @Override
    public String explain(String flow) {
        var parsed = FlowSyntax.parse(flow); // a flow not in the syntax is refused with or without a model
        return model().map(m -> m.classifier().explain(parsed)).orElse("no site model in force\n");
    }

    @Override
    public boolean ready() {
        return ready.getAsBoolean();
    }

    @Override
    public ProcessorHealth health() {
        return health.get();
    }

    @Override
    public Optional<String> siteModelProblem() {
        model(); // the text in the store, loaded if the global thread has not offered it yet
        return models.rejection();
    }

    private Optional<ActiveModel> model() {
        return models.forYaml(local.sitesYaml());
    }

    private List<StoreView> views() {
        List<StoreView> out = new ArrayList<>();
        out.add(local);
        cluster.others().forEach(h -> out.add(client.at(h)));
        return out;
    }

    private List<Verdict> verdicts(Function<StoreView, List<String>> read, Function<String, Verdict> parse) {
        List<Verdict> out = new ArrayList<>();
        for (StoreView v : views()) {
            read.apply(v).forEach(json -> out.add(parse.apply(json)));
        }
        return out;
    }

    /** The isolation evaluator of the last model asked with (a model's evaluator is built once). Thread-safe. */
    private static final class Evaluators {
        private record Cached(ActiveModel model, IsolationEvaluator evaluator) {
        }

        private volatile Cached last;

        IsolationEvaluator of(ActiveModel m) {
            Cached c = last;
            if (c == null || c.model() != m) {
                c = new Cached(m, IsolationEvaluator.orEmpty(m.classifier()));
                last = c;
            }
            return c.evaluator();
        }
    }
}
