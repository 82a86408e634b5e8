package io.siteflow.processor.http;

import io.siteflow.rules.model.Category;
import io.siteflow.rules.verdict.Outcome;
import io.siteflow.rules.verdict.RttSummary;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.VerdictCalculator;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The audit report over a period ({@code GET /api/report}): per audited pair (server × remote site), the sum of
 * its closed-window verdicts whose window starts in {@code [from, to)}. Bytes per category and per address are
 * exact sums; the share and verdict are recomputed from the sums with {@link VerdictCalculator} (no drop
 * information survives in the history, so drops count only through the windows' own outcomes, given in
 * {@code windowVerdicts}). RTT over the period: {@code samples} and {@code max} exact, {@code p50} the
 * sample-weighted median of the windows' medians, {@code p95} the largest window p95 (an upper bound).
 * Immutable.
 *
 * @param from    first millisecond of the period
 * @param to      first millisecond after it
 * @param servers one row per pair, sorted by server then remote site
 */
public record PeriodReport(long from, long to, List<Row> servers) {

    /** One audited pair over the period. */
    public record Row(String server, String name, String site, String remoteSite, String verdict,
                      BigDecimal dbShare, BigDecimal threshold, long crossBytes, int windows,
                      Map<String, Integer> windowVerdicts, Map<String, Long> categories,
                      Map<String, Long> addresses, RttSummary rttMicros) {
    }

    /** Sums the windows of each pair; {@code minCrossBytes} decides INSUFFICIENT for the period. */
    public static PeriodReport of(long from, long to, List<Verdict> windows, long minCrossBytes) {
        Map<String, List<Verdict>> byPair = new TreeMap<>();
        for (Verdict v : windows) {
            byPair.computeIfAbsent(v.server() + "\u0000" + v.remoteSite(), k -> new ArrayList<>()).add(v);
        }
        List<Row> rows = byPair.values().stream().map(vs -> row(vs, minCrossBytes)).toList();
        return new PeriodReport(from, to, rows);
    }

    private static Row row(List<Verdict> vs, long minCrossBytes) {
        Verdict last = vs.get(vs.size() - 1);
        Map<Category, Long> cats = new EnumMap<>(Category.class);
        Map<String, Long> addrs = new TreeMap<>();
        Map<String, Integer> outcomes = new LinkedHashMap<>();
        for (Outcome o : Outcome.values()) {
            outcomes.put(o.name(), 0);
        }
        long cross = 0;
        for (Verdict v : vs) {
            cross += v.crossBytes();
            v.categories().forEach((c, b) -> cats.merge(c, b, Long::sum));
            v.addresses().forEach((a, b) -> addrs.merge(a, b, Long::sum));
            outcomes.merge(v.verdict().name(), 1, Integer::sum);
        }
        long db = cats.getOrDefault(Category.DB, 0L);
        Outcome o = VerdictCalculator.outcome(db, cross, last.threshold(), minCrossBytes, false);
        Map<String, Long> catNames = new LinkedHashMap<>();
        cats.forEach((c, b) -> catNames.put(c.name(), b));
        return new Row(last.server(), last.name(), last.site(), last.remoteSite(), o.name(),
                VerdictCalculator.share(db, cross), last.threshold(), cross, vs.size(), outcomes, catNames,
                largestFirst(addrs), rtt(vs));
    }

    private static Map<String, Long> largestFirst(Map<String, Long> addrs) {
        Map<String, Long> out = new LinkedHashMap<>();
        addrs.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    /** Merged RTT summary of several windows (see the type's Javadoc for what is exact). */
    static RttSummary rtt(List<Verdict> vs) {
        long samples = 0;
        long max = 0;
        long p95 = 0;
        for (Verdict v : vs) {
            samples += v.rttMicros().samples();
            max = Math.max(max, v.rttMicros().max());
            p95 = Math.max(p95, v.rttMicros().p95());
        }
        if (samples == 0) {
            return RttSummary.NONE;
        }
        List<Verdict> sorted = vs.stream().filter(v -> v.rttMicros().samples() > 0)
                .sorted((a, b) -> Long.compare(a.rttMicros().p50(), b.rttMicros().p50())).toList();
        long half = (samples + 1) / 2;
        long seen = 0;
        long p50 = 0;
        for (Verdict v : sorted) {
            seen += v.rttMicros().samples();
            if (seen >= half) {
                p50 = v.rttMicros().p50();
                break;
            }
        }
        return new RttSummary(p50, p95, max, samples);
    }
}
