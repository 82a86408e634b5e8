package io.siteflow.rules.audit;

import io.siteflow.rules.model.Category;
import io.siteflow.rules.verdict.DbCallSummary;
import io.siteflow.rules.verdict.RttSummary;
import io.siteflow.rules.verdict.Verdict;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code siteflow audit --format csv}: one row per verdict (cumulative ones first, with empty window
 * columns, then per window), RFC 4180 quoting, a header row. The DB call columns ({@code dbCalls} ..
 * {@code dbCallServiceP50}) come last, after {@code reason}, so readers of the older columns by position still work. Thread-safe.
 */
public final class AuditCsv {
    private AuditCsv() {
    }

    public static String render(AuditReport r) {
        StringBuilder sb = new StringBuilder();
        List<String> header = new ArrayList<>(List.of("server", "name", "site", "remoteSite", "windowStart",
                "windowEnd", "verdict", "dbShare", "threshold", "crossBytes"));
        for (Category c : Category.all()) {
            header.add(c.name());
        }
        header.addAll(List.of("rttP50", "rttP95", "rttMax", "rttSamples", "dbConnectionsMedian",
                "dbConnectionsMax", "rules", "reason", "dbCalls", "dbCallsPerSecond", "dbCallP50", "dbCallP95",
                "dbCallP99", "dbCallRttMicros", "dbCallNetworkShare", "dbCallServiceP50"));
        line(sb, header);
        r.verdicts().forEach(v -> line(sb, row(v)));
        r.windows().forEach(v -> line(sb, row(v)));
        return sb.toString();
    }

    private static List<String> row(Verdict v) {
        List<String> row = new ArrayList<>(List.of(v.server(), v.name(), v.site(), v.remoteSite(),
                v.window().map(w -> Long.toString(w.start())).orElse(""),
                v.window().map(w -> Long.toString(w.end())).orElse(""), v.verdict().name(),
                v.dbShare().toPlainString(), v.threshold().toPlainString(), Long.toString(v.crossBytes())));
        for (Category c : Category.all()) {
            row.add(Long.toString(v.bytes(c)));
        }
        RttSummary t = v.rttMicros();
        row.addAll(List.of(Long.toString(t.p50()), Long.toString(t.p95()), Long.toString(t.max()),
                Long.toString(t.samples()), Long.toString(v.dbConnections().median()),
                Long.toString(v.dbConnections().max()), v.rules(), v.reason()));
        DbCallSummary d = v.dbCalls();
        row.addAll(List.of(Long.toString(d.calls()), d.callsPerSecond().toPlainString(), Long.toString(d.p50()),
                Long.toString(d.p95()), Long.toString(d.p99()), Long.toString(d.rttMicros()),
                d.networkShare().toPlainString(), Long.toString(d.serviceP50())));
        return row;
    }

    private static void line(StringBuilder sb, List<String> cells) {
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(quote(cells.get(i)));
        }
        sb.append("\r\n");
    }

    public static String quote(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }
}
