package io.siteflow.rules.verdict;

import io.siteflow.rules.model.Category;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The audit result for one server towards one remote site, in one window or cumulative (DESIGN.md, "Verdict";
 * JSON by {@link VerdictJson}). Immutable.
 *
 * @param server        audited server address
 * @param name          its host name
 * @param site          its site
 * @param remoteSite    the remote site
 * @param window        the window, empty for the cumulative verdict
 * @param verdict       PASS, FAIL or INSUFFICIENT
 * @param dbShare       DB bytes / cross bytes, rounded down to 4 decimals (0 when there are no cross bytes)
 * @param threshold     the threshold it was compared with
 * @param crossBytes    all IP bytes between server and remote site, both directions
 * @param categories    bytes per category, non-zero ones only, in category order
 * @param addresses     bytes per remote address, largest first
 * @param rttMicros     round-trip times of the pair's flows
 * @param dbConnections concurrent DB connections per minute; deprecated, the same as {@code dbCalls.connections}
 *                      (kept one version for readers of the old JSON key)
 * @param rules         the rule-set version, {@code sha256:...}
 * @param reason        one sentence saying why
 * @param topFlows      the largest non-DB flows, largest first
 * @param dbCalls       what the distance costs the server's DB calls
 * @param estimate      present when some of the pair's records were sampled (flow exports counting 1 in N packets):
 *                      the verdict is an estimate, {@code dbShare} within the bound of the exact share
 * @param exporters     present when flow exporters' records of the pair were compared with its observer's (the
 *                      host agent counts them): their bytes and the difference
 */
public record Verdict(String server, String name, String site, String remoteSite, Optional<Window> window,
                      Outcome verdict, BigDecimal dbShare, BigDecimal threshold, long crossBytes,
                      Map<Category, Long> categories, Map<String, Long> addresses, RttSummary rttMicros,
                      DbConnectionSummary dbConnections, String rules, String reason, List<TopFlow> topFlows,
                      DbCallSummary dbCalls, Optional<SampledEstimate> estimate,
                      Optional<ExporterComparison> exporters) {
    public Verdict {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(site, "site");
        Objects.requireNonNull(remoteSite, "remoteSite");
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(dbShare, "dbShare");
        Objects.requireNonNull(threshold, "threshold");
        Objects.requireNonNull(rttMicros, "rttMicros");
        Objects.requireNonNull(dbConnections, "dbConnections");
        Objects.requireNonNull(rules, "rules");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(dbCalls, "dbCalls");
        Objects.requireNonNull(estimate, "estimate");
        Objects.requireNonNull(exporters, "exporters");
        categories = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(categories));
        addresses = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(addresses));
        topFlows = List.copyOf(topFlows);
    }

    /** A verdict of counted (not sampled) records, no exporter compared. */
    public Verdict(String server, String name, String site, String remoteSite, Optional<Window> window,
                   Outcome verdict, BigDecimal dbShare, BigDecimal threshold, long crossBytes,
                   Map<Category, Long> categories, Map<String, Long> addresses, RttSummary rttMicros,
                   DbConnectionSummary dbConnections, String rules, String reason, List<TopFlow> topFlows,
                   DbCallSummary dbCalls) {
        this(server, name, site, remoteSite, window, verdict, dbShare, threshold, crossBytes, categories, addresses,
                rttMicros, dbConnections, rules, reason, topFlows, dbCalls, Optional.empty(), Optional.empty());
    }

    /** A verdict without DB call figures ({@link DbCallSummary#NONE} with these connections). */
    public Verdict(String server, String name, String site, String remoteSite, Optional<Window> window,
                   Outcome verdict, BigDecimal dbShare, BigDecimal threshold, long crossBytes,
                   Map<Category, Long> categories, Map<String, Long> addresses, RttSummary rttMicros,
                   DbConnectionSummary dbConnections, String rules, String reason, List<TopFlow> topFlows) {
        this(server, name, site, remoteSite, window, verdict, dbShare, threshold, crossBytes, categories, addresses,
                rttMicros, dbConnections, rules, reason, topFlows, new DbCallSummary(0, DbCallSummary.NONE.callsPerSecond(),
                        0, 0, 0, 0, DbCallSummary.NONE.networkShare(), 0, dbConnections));
    }

    /** Bytes of one category (0 when absent). */
    public long bytes(Category c) {
        return categories.getOrDefault(c, 0L);
    }
}
