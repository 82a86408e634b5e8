package io.siteflow.processor.http;

import io.siteflow.processor.query.AgentStatus;
import io.siteflow.processor.query.Alert;
import io.siteflow.processor.query.RulesInfo;
import io.siteflow.processor.query.SiteflowQueries;
import io.siteflow.processor.query.TalkerRow;
import io.siteflow.rules.verdict.Verdict;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The cluster-wide view: this instance's local stores plus every other instance's, asked through
 * {@link RemoteQueries} (each instance answers {@code scope=local} for the keys it owns). Lists are merged
 * and sorted as {@link SiteflowQueries} promises; a key reported by two instances (during a rebalance) is
 * taken once, this instance's copy first. {@code rules}, {@code explain} and {@code ready} are answered
 * locally. A peer that fails makes the call throw {@link RemoteQueryException} (the API answers 502).
 * Thread-safe when its parts are.
 */
public final class InstanceRouting implements SiteflowQueries {
    private static final Comparator<Verdict> BY_PAIR =
            Comparator.comparing(Verdict::server).thenComparing(Verdict::remoteSite);
    private static final Comparator<Verdict> BY_WINDOW =
            Comparator.<Verdict>comparingLong(v -> v.window().map(w -> w.start()).orElse(0L)).thenComparing(BY_PAIR);

    private final SiteflowQueries local;
    private final Supplier<List<Endpoint>> peers;
    private final RemoteQueries remote;

    /**
     * @param local  this instance's own state stores
     * @param peers  the other instances now (from Kafka Streams' metadata), this one excluded
     * @param remote how to ask them
     */
    public InstanceRouting(SiteflowQueries local, Supplier<List<Endpoint>> peers, RemoteQueries remote) {
        this.local = Objects.requireNonNull(local, "local");
        this.peers = Objects.requireNonNull(peers, "peers");
        this.remote = Objects.requireNonNull(remote, "remote");
    }

    private <T> List<T> all(Function<SiteflowQueries, List<T>> q) {
        List<T> out = new ArrayList<>(q.apply(local));
        for (Endpoint e : peers.get()) {
            out.addAll(q.apply(remote.at(e)));
        }
        return out;
    }

    private static <T, K> List<T> distinct(List<T> in, Function<T, K> key) {
        Map<K, T> m = new LinkedHashMap<>();
        in.forEach(t -> m.putIfAbsent(key.apply(t), t));
        return new ArrayList<>(m.values());
    }

    @Override
    public List<Verdict> cumulativeVerdicts() {
        return sorted(distinct(all(SiteflowQueries::cumulativeVerdicts), v -> v.server() + " " + v.remoteSite()), BY_PAIR);
    }

    @Override
    public List<Verdict> latestWindows() {
        return sorted(distinct(all(SiteflowQueries::latestWindows), v -> v.server() + " " + v.remoteSite()), BY_PAIR);
    }

    @Override
    public List<Verdict> windows(long fromMs, long toMs) {
        return sorted(distinct(all(q -> q.windows(fromMs, toMs)),
                v -> v.server() + " " + v.remoteSite() + " " + v.window().map(w -> w.start()).orElse(0L)), BY_WINDOW);
    }

    @Override
    public List<AgentStatus> agents() {
        List<AgentStatus> a = all(SiteflowQueries::agents);
        a.sort(Comparator.comparing(AgentStatus::agent).thenComparing(Comparator.comparingLong(AgentStatus::lastSeenMs).reversed()));
        return distinct(a, AgentStatus::agent);
    }

    @Override
    public List<Alert> alerts(int limit) {
        List<Alert> a = all(q -> q.alerts(limit));
        a.sort(Comparator.comparingLong(Alert::timeMs).reversed());
        return List.copyOf(a.subList(0, Math.min(Math.max(limit, 0), a.size())));
    }

    @Override
    public List<TalkerRow> talkers(boolean ports, String category, int limit) {
        List<TalkerRow> t = all(q -> q.talkers(ports, category, limit));
        t.sort(Comparator.comparingDouble((TalkerRow r) -> r.out10s() + r.in10s()).reversed());
        return List.copyOf(t.subList(0, Math.min(Math.max(limit, 0), t.size())));
    }

    @Override
    public RulesInfo rules() {
        return local.rules();
    }

    @Override
    public String explain(String flow) {
        return local.explain(flow);
    }

    @Override
    public boolean ready() {
        return local.ready();
    }

    private static <T> List<T> sorted(List<T> in, Comparator<T> c) {
        in.sort(c);
        return List.copyOf(in);
    }
}
