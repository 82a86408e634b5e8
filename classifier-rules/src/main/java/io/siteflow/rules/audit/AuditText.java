package io.siteflow.rules.audit;

import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.Protocols;
import io.siteflow.rules.model.RttLimit;
import io.siteflow.rules.verdict.DbCallSummary;
import io.siteflow.rules.verdict.DbSiteComparison;
import io.siteflow.rules.verdict.Outcome;
import io.siteflow.rules.verdict.RttSummary;
import io.siteflow.rules.verdict.SitePairRtt;
import io.siteflow.rules.verdict.TopFlow;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.VerdictCalculator;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;

/**
 * {@code siteflow audit --format text}: per audited server the verdict, DB share, bytes per category and per
 * remote address as tables, RTT, DB connections and DB calls (count, rate, call-time percentiles, the RTT's part), unclassified bytes and the largest non-DB flows; then the
 * RTT per site pair against the limit in force (Oracle's 10 ms, or the site model's stricter {@code rttLimitMs})
 * and a count of window verdicts. Thread-safe.
 */
public final class AuditText {
    private AuditText() {
    }

    public static String render(AuditReport r) {
        StringBuilder sb = new StringBuilder();
        CaptureInfo c = r.capture();
        sb.append("siteflow audit: ").append(c.source()).append('\n');
        sb.append(String.format(Locale.ROOT, "  %d flow records, %d bytes, %s .. %s%n", c.records(), c.bytes(),
                Instant.ofEpochMilli(c.firstMs()), Instant.ofEpochMilli(c.lastMs())));
        sb.append("  rules ").append(r.rules()).append('\n');
        if (c.rejected() > 0) {
            sb.append(String.format(Locale.ROOT, "  WARNING: %d records rejected (address is no IP address)%n",
                    c.rejected()));
        }
        if (VerdictCalculator.dropsAboveLimit(c.received(), c.dropped())) {
            sb.append(String.format(Locale.ROOT, "  WARNING: observer dropped %d of %d packets (> 0.1%%)%n",
                    c.dropped(), c.received() + c.dropped()));
        }
        if (r.verdicts().isEmpty()) {
            sb.append("\nno audited pair: the site model names no app-server in a site without db host"
                    + " (or list audit: pairs)\n");
        }
        for (Verdict v : r.verdicts()) {
            server(sb, v);
        }
        sb.append("\nRTT per site pair (Oracle supports at most 10 ms):\n");
        if (r.sitePairs().isEmpty()) {
            sb.append("  no handshake samples between sites\n");
        }
        for (SitePairRtt p : r.sitePairs()) {
            sb.append(String.format(Locale.ROOT, "  %s <-> %s: %s  %s%n", p.siteA(), p.siteB(), rtt(p.rtt()),
                    limitText(p)));
        }
        for (DbSiteComparison d : r.dbSites()) {
            sb.append(String.format(Locale.ROOT, "%nDB calls to %s (%s, site %s): local %d servers, remote %d servers%n",
                    d.name(), d.database(), d.site(), d.localServers(), d.remoteServers()));
            sb.append("  local: ");
            dbCallLine(sb, d.local());
            sb.append("  remote: ");
            dbCallLine(sb, d.remote());
            sb.append(String.format(Locale.ROOT, "  remote/local: call p50 x%s, connections per server x%s%n",
                    d.callRatio().toPlainString(), d.connectionRatio().toPlainString()));
        }
        long pass = r.windows().stream().filter(v -> v.verdict() == Outcome.PASS).count();
        long fail = r.windows().stream().filter(v -> v.verdict() == Outcome.FAIL).count();
        sb.append(String.format(Locale.ROOT, "%nwindows: %d verdicts (PASS %d, FAIL %d, INSUFFICIENT %d)%n",
                r.windows().size(), pass, fail, r.windows().size() - pass - fail));
        return sb.toString();
    }

    /** {@code ABOVE the 10 ms limit}, or when the site model's limit is the stricter one, its own. */
    private static String limitText(SitePairRtt p) {
        if (p.limit().source() == RttLimit.Source.ORACLE) {
            return p.aboveLimit() ? "ABOVE the 10 ms limit" : "within the 10 ms limit";
        }
        return (p.aboveLimit() ? "ABOVE " : "within ") + p.limit().text();
    }

    private static void server(StringBuilder sb, Verdict v) {
        sb.append(String.format(Locale.ROOT, "%nserver %s (%s, site %s) -> site %s: %s%n", v.name(), v.server(),
                v.site(), v.remoteSite(), v.verdict()));
        sb.append("  ").append(v.reason()).append('\n');
        v.estimate().ifPresent(e -> sb.append("  estimate: records sampled 1 in ").append(e.sampling())
                .append(" (at most); the exact DB share within +/- ").append(VerdictCalculator.percent(e.bound()))
                .append(" of this one (5 sigma)\n"));
        sb.append(String.format(Locale.ROOT, "  %-12s %14s %8s%n", "category", "bytes", "share"));
        for (Map.Entry<Category, Long> e : v.categories().entrySet()) {
            sb.append(String.format(Locale.ROOT, "  %-12s %14d %8s%n", e.getKey(), e.getValue(),
                    pct(e.getValue(), v.crossBytes())));
        }
        sb.append(String.format(Locale.ROOT, "  %-12s %14d %8s%n", "total", v.crossBytes(), "100.00%"));
        sb.append(String.format(Locale.ROOT, "  %-39s %14s %8s%n", "remote address", "bytes", "share"));
        for (Map.Entry<String, Long> e : v.addresses().entrySet()) {
            sb.append(String.format(Locale.ROOT, "  %-39s %14d %8s%n", e.getKey(), e.getValue(),
                    pct(e.getValue(), v.crossBytes())));
        }
        sb.append("  RTT ").append(rtt(v.rttMicros())).append('\n');
        sb.append(String.format(Locale.ROOT, "  DB connections: median %d, max %d%n", v.dbConnections().median(),
                v.dbConnections().max()));
        dbCalls(sb, v.dbCalls());
        sb.append(String.format(Locale.ROOT, "  unclassified: %d bytes%n", v.bytes(Category.UNKNOWN)));
        if (!v.topFlows().isEmpty()) {
            sb.append("  largest non-DB flows:\n");
        }
        for (TopFlow f : v.topFlows()) {
            String by = f.rule().equals(io.siteflow.rules.model.Rule.NONE.name()) ? ", no rule matched" : " by " + f.rule();
            sb.append(String.format(Locale.ROOT, "    %s %s:%d -> %s:%d%s  %s%s  %d bytes%n",
                    Protocols.name(f.proto()), f.src(), f.srcPort(), f.dst(), f.dstPort(),
                    f.l7().isEmpty() ? "" : " l7=" + f.l7(), f.category(), by, f.bytes()));
        }
    }

    /** {@code DB calls: 100 (10.00/s), p50 9.497 ms, p95 ..., p99 ...; RTT 6.500 ms = 68.44% of p50, service 2.997 ms}. */
    private static void dbCalls(StringBuilder sb, DbCallSummary d) {
        sb.append("  DB calls: ");
        dbCallLine(sb, d);
    }

    private static void dbCallLine(StringBuilder sb, DbCallSummary d) {
        if (d.calls() == 0) {
            sb.append("none timed\n");
            return;
        }
        sb.append(String.format(Locale.ROOT, "%d (%s/s), p50 %.3f ms, p95 %.3f ms, p99 %.3f ms; "
                + "RTT %.3f ms = %s of p50, service %.3f ms%n", d.calls(), d.callsPerSecond().toPlainString(),
                d.p50() / 1000.0, d.p95() / 1000.0, d.p99() / 1000.0, d.rttMicros() / 1000.0,
                d.networkShare().movePointRight(2).setScale(2) + "%", d.serviceP50() / 1000.0));
    }

    static String rtt(RttSummary r) {
        if (r.samples() == 0) {
            return "no samples";
        }
        return String.format(Locale.ROOT, "p50 %.3f ms, p95 %.3f ms, max %.3f ms (%d samples)", r.p50() / 1000.0,
                r.p95() / 1000.0, r.max() / 1000.0, r.samples());
    }

    static String pct(long part, long whole) {
        return whole == 0 ? "-" : VerdictCalculator.share(part, whole).movePointRight(2).setScale(2) + "%";
    }
}
