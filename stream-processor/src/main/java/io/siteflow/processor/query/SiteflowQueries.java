package io.siteflow.processor.query;

import io.siteflow.processor.topology.Alert;
import io.siteflow.rules.verdict.DbSiteComparison;
import io.siteflow.rules.verdict.SitePairRtts;
import io.siteflow.rules.verdict.Verdict;
import java.util.List;

/**
 * What the HTTP API and the dashboard read from the stream processor: the contract between the Kafka
 * Streams topology (which keeps the state stores and answers for the whole cluster, asking the instance
 * that owns a key when needed) and the API/UI. Every method returns a snapshot; none returns null.
 * Implementations are thread-safe.
 */
public interface SiteflowQueries {

    /** The cumulative verdict of every audited pair (server × remote site), sorted by server then site. */
    List<Verdict> cumulativeVerdicts();

    /**
     * The site comparison ({@link io.siteflow.rules.verdict.DbSites}): per database, the cumulative DB calls of
     * the app servers of its own site beside the remote ones, by database address; what {@code siteflow audit}
     * reports as {@code dbSites}.
     */
    List<DbSiteComparison> dbSites();

    /** The last closed window's verdict of every audited pair. */
    List<Verdict> latestWindows();

    /**
     * Closed-window verdicts whose window starts in {@code [fromMs, toMs)}, oldest first, from the verdict
     * history (kept 30 days by default).
     */
    List<Verdict> windows(long fromMs, long toMs);

    /** Each agent's last heartbeat, sorted by agent id. */
    List<AgentStatus> agents();

    /** The newest alerts, newest first, at most {@code limit}. */
    List<Alert> alerts(int limit);

    /**
     * Top talkers like iftop: host pairs per category (or port pairs when {@code ports}) with rates (bytes/s,
     * ending at the newest data while it is fresh, then at the wall clock, {@code Talkers}) and totals, largest
     * 10 s rate first, at most {@code limit}; {@code category} filters when not null.
     */
    List<TalkerRow> talkers(boolean ports, String category, int limit);

    /** The alert baseline (and when it ends) and repeat interval. */
    AlertSettings alertSettings();

    /** The site model in force. */
    RulesInfo rules();

    /** {@code siteflow rules explain} for one flow in the flow syntax, e.g. {@code tcp 10.2.0.20:40112 -> 10.1.0.10:1521}. */
    String explain(String flow);

    /**
     * The DB call-time histogram of every audited pair with calls (cumulative), sorted by server then site; empty
     * where the implementation keeps none.
     */
    default List<DbCallHistogram> dbCallHistograms() {
        return List.of();
    }

    /**
     * The handshake RTT per site pair over the audited pairs' cumulative aggregates
     * ({@link SitePairRtts#ofAudited}, as {@code siteflow audit} computes its site pairs);
     * empty before a site model is active.
     *
     * @throws OwnersMovingException when some audited server's owner is moving or cannot answer
     */
    SitePairRtts sitePairRtts();

    /**
     * The isolation inputs of [fromMs, toMs), with the evaluator of the model in force: every decided edge, the observers that were silent or dropping, the
     * handshake RTTs per address and peer site (docs/API.md, "Isolation"); empty before a site model is in force. A
     * model without an {@code isolation:} block decides against the empty policy
     * ({@link io.siteflow.rules.isolation.IsolationEvaluator#orEmpty}: every cross-site edge UNLISTED), which is what
     * a proposal is made from.
     *
     * @throws OwnersMovingException when some edge's owner is moving or cannot answer
     */
    java.util.Optional<io.siteflow.rules.isolation.IsolationInputs> isolation(long fromMs, long toMs);

    /** True when the processor is ready to answer (Kafka Streams RUNNING). */
    boolean ready();

    /**
     * What {@code /health} says: by default UP when {@link #ready()}, else STARTING without a reason; the running
     * processor says DOWN with the reason while Kafka Streams is neither RUNNING nor REBALANCING.
     */
    default ProcessorHealth health() {
        return ready() ? ProcessorHealth.UP : ProcessorHealth.starting(null);
    }

    /**
     * Why the newest site model on {@code siteflow.sites} is not in force (an older one is, or none), empty when
     * it is ({@link io.siteflow.processor.topology.ModelCache#rejection()}).
     */
    default java.util.Optional<String> siteModelProblem() {
        return java.util.Optional.empty();
    }
}
