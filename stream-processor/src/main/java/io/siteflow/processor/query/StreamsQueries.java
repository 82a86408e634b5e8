package io.siteflow.processor.query;

import io.siteflow.processor.topology.ActiveModel;
import io.siteflow.processor.topology.Alert;
import io.siteflow.processor.topology.ModelCache;
import io.siteflow.rules.classify.FlowSyntax;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.verdict.AuditPair;
import io.siteflow.rules.verdict.DbSiteComparison;
import io.siteflow.rules.verdict.DbSiteEnds;
import io.siteflow.rules.verdict.DbSites;
import io.siteflow.rules.verdict.PairAggregate;
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
 * <p>Failures: {@code org.apache.kafka.streams.errors.InvalidStateStoreException} while stores are not queryable
 * (start-up, rebalance), {@link OwnersMovingException} from {@link #cumulativeVerdicts} when the owner of some
 * server's task is moving, {@link InstanceClient.RemoteQueryException} when another instance does not answer;
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
    private final Clock clock;
    private final Duration baseline;
    private final Duration alertRepeat;
    /** The latest window verdicts by their stored JSON, parsed once: room for 4,096 pairs or 16 M characters. */
    private final VerdictCache latest = new VerdictCache(4096, 16L << 20);

    /** @param config the topology's settings (the alert baseline and repeat interval) */
    public StreamsQueries(LocalStoreView local, Cluster cluster, InstanceClient client, ModelCache models,
                          BooleanSupplier ready, Clock clock, TopologyConfig config) {
        this.baseline = config.baseline();
        this.alertRepeat = config.alertRepeat();
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
        Map<Host, List<AuditPair>> byServer = new LinkedHashMap<>();
        m.get().pairs().forEach(p -> byServer.computeIfAbsent(p.server(), s -> new ArrayList<>()).add(p));
        List<Verdict> out = new ArrayList<>();
        List<OwnersMovingException.Unavailable> moving = new ArrayList<>();
        byServer.forEach((server, pairs) -> addServer(m.get(), server, pairs, out).ifPresent(why -> moving.add(
                new OwnersMovingException.Unavailable(server.address(), server.name(),
                        "owner of " + server.name() + " (" + server.address() + ") is moving: " + why))));
        out.sort(BY_PAIR);
        if (!moving.isEmpty()) {
            throw new OwnersMovingException(moving, out, byServer.size());
        }
        return out;
    }

    /**
     * Adds the cumulative verdicts of one server's pairs to {@code out}, read where its task runs, or says why
     * that owner cannot answer now (and adds nothing). On a single instance a store that is not queryable is
     * not a moving owner: the {@code InvalidStateStoreException} goes up.
     */
    private Optional<String> addServer(ActiveModel m, Host server, List<AuditPair> pairs, List<Verdict> out) {
        Cluster.Owner owner = cluster.owner(server.address());
        if (owner instanceof Cluster.Moving moving) {
            return Optional.of(moving.reason());
        }
        int partition = partitionOf(owner);
        StoreView view = viewOf(owner);
        List<Verdict> mine = new ArrayList<>();
        try {
            boolean drops = view.observerDrops(server.address(), partition);
            for (AuditPair p : pairs) {
                mine.add(cumulative(m, p, view.cumulativeAggregate(m.keyOf(p).encoded(), partition)
                        .orElseGet(PairAggregate::new), drops));
            }
        } catch (InvalidStateStoreException e) {
            if (partition == StoreView.ANY_PARTITION) {
                throw e;
            }
            return Optional.of("its task (partition " + partition + ") is not running on this instance yet "
                    + "(restoring its state or rebalancing): " + e.getMessage());
        } catch (InstanceClient.RemoteQueryException e) {
            HostInfo h = ((Cluster.At) owner).host();
            return Optional.of("its owner " + h.host() + ":" + h.port() + " cannot answer: " + e.getMessage());
        }
        out.addAll(mine);
        return Optional.empty();
    }

    /**
     * The call-time histograms, read where each server's task runs; a server whose owner is moving is left out
     * (the chart is drawn again at the next event).
     */
    @Override
    public List<DbCallHistogram> dbCallHistograms() {
        Optional<ActiveModel> m = model();
        if (m.isEmpty()) {
            return List.of();
        }
        List<DbCallHistogram> out = new ArrayList<>();
        for (AuditPair p : m.get().pairs()) {
            String server = p.server().address();
            Cluster.Owner owner = cluster.owner(server);
            if (owner instanceof Cluster.Moving) {
                continue;
            }
            boolean here = owner instanceof Cluster.Here;
            int partition = here ? ((Cluster.Here) owner).partition() : ((Cluster.At) owner).partition();
            StoreView view = here ? local : client.at(((Cluster.At) owner).host());
            view.cumulativeAggregate(m.get().keyOf(p).encoded(), partition).map(a -> a.dbCalls().histogram())
                    .filter(h -> !h.isEmpty())
                    .ifPresent(h -> out.add(new DbCallHistogram(server, p.remoteSite().name(), h)));
        }
        out.sort(Comparator.comparing(DbCallHistogram::server).thenComparing(DbCallHistogram::remoteSite));
        return out;
    }

    /** The partition of the task of a key whose owner is not moving. */
    private static int partitionOf(Cluster.Owner owner) {
        return owner instanceof Cluster.Here h ? h.partition() : ((Cluster.At) owner).partition();
    }

    /** The stores of the instance that owns a key whose owner is not moving: this one's, or another's by HTTP. */
    private StoreView viewOf(Cluster.Owner owner) {
        return owner instanceof Cluster.Here ? local : client.at(((Cluster.At) owner).host());
    }

    /**
     * The aggregates of every (database, app server) of the model, from the task of the database's address,
     * folded into {@link DbSites} as the offline audit folds its records.
     *
     * @throws InvalidStateStoreException when the owner of a database's task is moving, naming it and why
     */
    @Override
    public List<DbSiteComparison> dbSites() {
        Optional<ActiveModel> m = model();
        if (m.isEmpty()) {
            return List.of();
        }
        DbSiteEnds ends = m.get().dbSiteEnds();
        DbSites sites = new DbSites(ends);
        for (String database : ends.databases().keySet()) {
            Cluster.Owner owner = cluster.owner(database);
            if (owner instanceof Cluster.Moving moving) {
                throw new InvalidStateStoreException("owner of database " + database + " is moving: "
                        + moving.reason());
            }
            StoreView view = viewOf(owner);
            for (String server : ends.servers().keySet()) {
                view.cumulativeAggregate(TopologySpec.dbSiteKey(database, server), partitionOf(owner))
                        .ifPresent(agg -> sites.add(database, server, agg));
            }
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
}
