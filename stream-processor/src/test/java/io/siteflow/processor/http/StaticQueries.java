package io.siteflow.processor.http;

import io.siteflow.processor.query.AgentStatus;
import io.siteflow.processor.query.AlertSettings;
import io.siteflow.processor.query.DbCallHistogram;
import io.siteflow.processor.query.RulesInfo;
import io.siteflow.processor.query.SiteflowQueries;
import io.siteflow.processor.query.TalkerRow;
import io.siteflow.processor.topology.Alert;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.verdict.DbSiteComparison;
import io.siteflow.rules.verdict.Verdict;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@link SiteflowQueries} over fixed lists held in memory: for tests, the dashboard benchmark and demos
 * without Kafka. The lists are replaced whole ({@link #update}), so readers always see one consistent
 * snapshot. Thread-safe. No method returns null.
 */
public final class StaticQueries implements SiteflowQueries {

    /**
     * Everything the queries answer from.
     *
     * @param cumulative cumulative verdicts, already sorted by server then remote site
     * @param history    closed-window verdicts, oldest first
     * @param agents     agent heartbeats, sorted by agent id
     * @param alerts     alerts, newest first
     * @param talkers    host-pair talkers, largest 10 s rate first
     * @param portPairs  port-pair talkers, largest 10 s rate first
     * @param rules      the site model in force
     * @param ready      what {@link #ready()} says
     */
    public record Snapshot(List<Verdict> cumulative, List<Verdict> history, List<AgentStatus> agents,
                           List<Alert> alerts, List<TalkerRow> talkers, List<TalkerRow> portPairs,
                           RulesInfo rules, boolean ready) {
        public Snapshot {
            cumulative = List.copyOf(cumulative);
            history = List.copyOf(history);
            agents = List.copyOf(agents);
            alerts = List.copyOf(alerts);
            talkers = List.copyOf(talkers);
            portPairs = List.copyOf(portPairs);
            Objects.requireNonNull(rules, "rules");
        }

        public Snapshot withReady(boolean r) {
            return new Snapshot(cumulative, history, agents, alerts, talkers, portPairs, rules, r);
        }

        /** A copy with another site model in force. */
        public Snapshot withRules(RulesInfo r) {
            return new Snapshot(cumulative, history, agents, alerts, talkers, portPairs, r, ready);
        }

        /** A copy with {@code a} in front of the alerts. */
        public Snapshot withAlert(Alert a) {
            List<Alert> more = new ArrayList<>(alerts.size() + 1);
            more.add(a);
            more.addAll(alerts);
            return new Snapshot(cumulative, history, agents, more, talkers, portPairs, rules, ready);
        }
    }

    private final AtomicReference<Snapshot> snapshot;
    private final Explain explain;
    private volatile List<DbCallHistogram> dbCalls = List.of();
    private volatile io.siteflow.rules.verdict.SitePairRtts sitePairRtts = new io.siteflow.rules.verdict.SitePairRtts();
    private final AtomicReference<List<DbSiteComparison>> dbSites = new AtomicReference<>(List.of());

    /** Explains a flow; the static queries have no classifier of their own. */
    @FunctionalInterface
    public interface Explain {
        String explain(String flow);
    }

    public StaticQueries(Snapshot initial, Explain explain) {
        this.snapshot = new AtomicReference<>(Objects.requireNonNull(initial, "initial"));
        this.explain = Objects.requireNonNull(explain, "explain");
    }

    /** Replaces the site comparison {@link #dbSites()} answers (none at first). */
    public void dbSites(List<DbSiteComparison> sites) {
        dbSites.set(List.copyOf(sites));
    }

    @Override
    public List<DbSiteComparison> dbSites() {
        return dbSites.get();
    }

    /** Replaces the data with what {@code change} makes of the current snapshot. */
    public void update(java.util.function.UnaryOperator<Snapshot> change) {
        snapshot.updateAndGet(change);
    }

    public Snapshot snapshot() {
        return snapshot.get();
    }

    @Override
    public List<DbCallHistogram> dbCallHistograms() {
        return dbCalls;
    }

    @Override
    public io.siteflow.rules.verdict.SitePairRtts sitePairRtts() {
        return sitePairRtts;
    }

    private volatile java.util.Optional<io.siteflow.rules.isolation.IsolationInputs> isolation = java.util.Optional.empty();

    /**
     * The inputs set by {@link #withIsolation} for the period asked: its edges that were seen in it (last seen at or
     * after {@code fromMs}, first seen before {@code toMs}), its observers and RTTs whatever the period; empty (no site
     * model in force) until inputs are set.
     */
    @Override
    public java.util.Optional<io.siteflow.rules.isolation.IsolationInputs> isolation(long fromMs, long toMs) {
        return isolation.map(in -> new io.siteflow.rules.isolation.IsolationInputs(in.evaluator(), fromMs, toMs,
                in.edges().stream().filter(e -> e.lastSeenMs() >= fromMs && e.firstSeenMs() < toMs).toList(),
                in.unverified(), in.rtts()));
    }

    /** Sets the inputs {@link #isolation} answers from. @return this */
    public StaticQueries withIsolation(io.siteflow.rules.isolation.IsolationInputs inputs) {
        isolation = java.util.Optional.of(inputs);
        return this;
    }

    /** No isolation inputs: {@link #isolation} answers as before a site model is in force. @return this */
    public StaticQueries withoutIsolation() {
        isolation = java.util.Optional.empty();
        return this;
    }

    /** Sets what {@link #sitePairRtts()} answers. @return this */
    public StaticQueries withSitePairRtts(io.siteflow.rules.verdict.SitePairRtts rtts) {
        sitePairRtts = rtts;
        return this;
    }

    /** Sets what {@link #dbCallHistograms()} answers. @return this */
    public StaticQueries withDbCalls(List<DbCallHistogram> histograms) {
        dbCalls = List.copyOf(histograms);
        return this;
    }

    @Override
    public List<Verdict> cumulativeVerdicts() {
        return snapshot.get().cumulative();
    }

    /** The verdicts of the newest window present in the history. */
    @Override
    public List<Verdict> latestWindows() {
        List<Verdict> h = snapshot.get().history();
        long newest = h.stream().mapToLong(v -> v.window().orElseThrow().start()).max().orElse(Long.MIN_VALUE);
        return h.stream().filter(v -> v.window().orElseThrow().start() == newest)
                .sorted(Comparator.comparing(Verdict::server).thenComparing(Verdict::remoteSite)).toList();
    }

    @Override
    public List<Verdict> windows(long fromMs, long toMs) {
        return snapshot.get().history().stream().filter(v -> {
            long s = v.window().orElseThrow().start();
            return s >= fromMs && s < toMs;
        }).toList();
    }

    /** A 1 h baseline that started when the rules were loaded, alerts repeated every hour. */
    @Override
    public AlertSettings alertSettings() {
        return new AlertSettings(3_600_000L, snapshot.get().rules().loadedMs() + 3_600_000L, 3_600_000L);
    }

    @Override
    public List<AgentStatus> agents() {
        return snapshot.get().agents();
    }

    @Override
    public List<Alert> alerts(int limit) {
        List<Alert> a = snapshot.get().alerts();
        return a.subList(0, Math.min(Math.max(limit, 0), a.size()));
    }

    @Override
    public List<TalkerRow> talkers(boolean ports, String category, int limit) {
        Snapshot s = snapshot.get();
        return (ports ? s.portPairs() : s.talkers()).stream()
                .filter(t -> category == null || Category.parse(category).name().equals(t.category()))
                .limit(Math.max(limit, 0)).toList();
    }

    @Override
    public RulesInfo rules() {
        return snapshot.get().rules();
    }

    @Override
    public String explain(String flow) {
        return explain.explain(flow);
    }

    @Override
    public boolean ready() {
        return snapshot.get().ready();
    }
}
