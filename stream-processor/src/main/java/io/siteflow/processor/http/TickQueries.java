package io.siteflow.processor.http;

import io.siteflow.processor.query.AgentStatus;
import io.siteflow.processor.query.AlertSettings;
import io.siteflow.processor.query.DbCallHistogram;
import io.siteflow.processor.query.ProcessorHealth;
import io.siteflow.processor.query.RulesInfo;
import io.siteflow.processor.query.SiteflowQueries;
import io.siteflow.processor.query.TalkerRow;
import io.siteflow.processor.topology.Alert;
import io.siteflow.rules.verdict.DbSiteComparison;
import io.siteflow.rules.verdict.SitePairRtts;
import io.siteflow.rules.verdict.Verdict;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The queries of one event-stream tick: each query with the same arguments runs once and its answer, or its
 * failure, is given to every view that needs it (the links view reads the talkers and the rules the other views read
 * too). For one tick only (answers are not refreshed); one thread.
 */
final class TickQueries implements SiteflowQueries {
    private final SiteflowQueries q;
    private final Map<String, Object> answers = new HashMap<>();

    TickQueries(SiteflowQueries q) {
        this.q = q;
    }

    /** The answer of {@code key}, computed at the first call; a failure is thrown again, the same, at each call. */
    @SuppressWarnings("unchecked")
    private <T> T once(String key, Supplier<T> query) {
        Object a = answers.computeIfAbsent(key, k -> {
            try {
                return query.get();
            } catch (RuntimeException e) {
                return new Failed(e);
            }
        });
        if (a instanceof Failed f) {
            throw f.e();
        }
        return (T) a;
    }

    private record Failed(RuntimeException e) {
    }

    @Override
    public List<Verdict> cumulativeVerdicts() {
        return once("cumulativeVerdicts", q::cumulativeVerdicts);
    }

    @Override
    public List<DbSiteComparison> dbSites() {
        return once("dbSites", q::dbSites);
    }

    @Override
    public List<Verdict> latestWindows() {
        return once("latestWindows", q::latestWindows);
    }

    @Override
    public List<Verdict> windows(long fromMs, long toMs) {
        return once("windows " + fromMs + " " + toMs, () -> q.windows(fromMs, toMs));
    }

    @Override
    public List<AgentStatus> agents() {
        return once("agents", q::agents);
    }

    @Override
    public List<Alert> alerts(int limit) {
        return once("alerts " + limit, () -> q.alerts(limit));
    }

    @Override
    public List<TalkerRow> talkers(boolean ports, String category, int limit) {
        return once("talkers " + ports + " " + category + " " + limit, () -> q.talkers(ports, category, limit));
    }

    @Override
    public AlertSettings alertSettings() {
        return once("alertSettings", q::alertSettings);
    }

    @Override
    public RulesInfo rules() {
        return once("rules", q::rules);
    }

    @Override
    public String explain(String flow) {
        return q.explain(flow);
    }

    @Override
    public List<DbCallHistogram> dbCallHistograms() {
        return once("dbCallHistograms", q::dbCallHistograms);
    }

    @Override
    public SitePairRtts sitePairRtts() {
        return once("sitePairRtts", q::sitePairRtts);
    }

    @Override
    public Optional<io.siteflow.rules.isolation.IsolationInputs> isolation(long fromMs, long toMs) {
        return q.isolation(fromMs, toMs); // a period asked for, not one per tick
    }

    @Override
    public boolean ready() {
        return q.ready();
    }

    @Override
    public ProcessorHealth health() {
        return q.health();
    }

    @Override
    public Optional<String> siteModelProblem() {
        return q.siteModelProblem();
    }
}
