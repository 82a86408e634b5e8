package io.siteflow.rules.audit;

import io.siteflow.rules.verdict.DbSiteComparison;
import io.siteflow.rules.verdict.SitePairRtt;
import io.siteflow.rules.verdict.Verdict;
import java.util.List;
import java.util.Objects;

/**
 * The result of {@code siteflow audit}: what was read, the cumulative verdict of every audited pair, the
 * per-window verdicts (by window start, then pair), the RTT per site pair and, per database, its local and remote
 * servers' DB calls side by side. Immutable; rendered by
 * {@link AuditReportJson}, {@link AuditText} and {@link AuditCsv}.
 */
public record AuditReport(CaptureInfo capture, String rules, List<Verdict> verdicts, List<Verdict> windows,
                          List<SitePairRtt> sitePairs, List<DbSiteComparison> dbSites) {
    public AuditReport {
        Objects.requireNonNull(capture, "capture");
        Objects.requireNonNull(rules, "rules");
        verdicts = List.copyOf(verdicts);
        windows = List.copyOf(windows);
        sitePairs = List.copyOf(sitePairs);
        dbSites = List.copyOf(dbSites);
    }
}
