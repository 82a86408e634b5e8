package io.siteflow.bench.soak;

import io.siteflow.bench.soak.SoakOptions.Watched;
import io.siteflow.bench.soak.SoakSeries.Row;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * What the soak prints at the end: records produced and counted (and whether they are equal, per server, in
 * records and bytes), the lag over the whole run and its worst interval, and a Markdown table of each process's
 * memory, GC and CPU at the start, after the warm-up and at the end. Immutable once made.
 */
final class SoakReport {
    private final StringBuilder text = new StringBuilder();
    private final boolean equal;

    /**
     * The verdict readings: how many, their mean and longest time, and the failed ones.
     *
     * @param meanMs    mean time of a reading (request to parsed answer), ms
     * @param slowestMs the longest reading, ms
     * @param lastError the last failure's message, or null
     */
    record Readings(long count, double meanMs, double slowestMs, long failed, String lastError) {
    }

    /**
     * @param loadEnded seconds from the start of the load to the end of its last send and flush
     * @param pauses    processor i's GC pauses so far, ms
     */
    SoakReport(SoakOptions o, Produced agents, VerdictPoller.Totals counted, LagStats lag, List<Row> rows,
            double loadEnded, List<Watched> processors, List<Watched> others, IntFunction<List<Double>> pauses,
            Readings readings) {
        Row start = rows.get(0);
        Row end = rows.get(rows.size() - 1);
        Row warm = rows.stream().filter(r -> r.t() >= o.warmup().toSeconds()).findFirst().orElse(end);
        int unequal = agents.unequalAgents(counted);
        equal = agents.allCounted(counted);
        line("cluster soak: %d agents over %d producers, %,d records/s offered for %d s; verdicts read from %s "
                + "%d ms apart", o.agents(), o.producers(), o.rate(), o.duration().toSeconds(), o.api(), o.pollMs());
        line("records produced (acknowledged by Kafka): %,d of %,d offered, %,d failed sends%s; %,.0f records/s",
                agents.acked(), agents.offered(), agents.failed(),
                agents.firstFailure() == null ? "" : " (first: " + agents.firstFailure() + ")",
                agents.acked() / (double) Math.max(1, o.duration().toSeconds()));
        line("records counted in the cumulative verdicts: %,d (rttMicros.samples over %d pairs); cross-site bytes "
                + "%,d counted of %,d produced: %s", counted.records(), counted.pairs(), counted.bytes(),
                agents.ackedBytes(), equal ? "EQUAL" : "NOT EQUAL (" + unequal + " servers differ)");
        line("end-to-end lag, send() -> first /api/verdicts reading that counts the record: p50 %,d ms, p99 %,d ms, "
                + "max %,d ms over %,d records; worst 10-s p99 %s; %,d records never counted",
                lag.percentile(50), lag.percentile(99), lag.max(), lag.count(), worst(rows),
                Math.max(0, agents.acked() - lag.count()));
        line("verdict readings: %,d, %.0f ms each on average, the longest %,.0f ms%s", readings.count(),
                readings.meanMs(), readings.slowestMs(), readings.failed() == 0 ? ""
                        : String.format(Locale.ROOT, "; %,d failed (last: %s)", readings.failed(),
                                readings.lastError()));
        line("samples: start t=%.0f s, after warm-up t=%.0f s, end t=%.0f s (the load ended at %.0f s)", start.t(),
                warm.t(), end.t(), loadEnded);
        table(processors, others, pauses, rows, start, warm, end);
    }

    String text() {
        return text.toString();
    }

    /** Records and bytes counted equal those acknowledged, for every server and in total. */
    boolean equal() {
        return equal;
    }

    private static String worst(List<Row> rows) {
        Row w = null;
        for (Row r : rows) {
            if (r.lagP99() >= 0 && (w == null || r.lagP99() > w.lagP99())) {
                w = r;
            }
        }
        return w == null ? "none" : String.format(Locale.ROOT, "%,d ms (interval ending at %.0f s)", w.lagP99(),
                w.t());
    }

    private void table(List<Watched> processors, List<Watched> others, IntFunction<List<Double>> pauseList,
            List<Row> rows, Row start, Row warm, Row end) {
        line("");
        line("| process | RSS start / warm-up / end MiB | end vs warm-up | heap after GC start / warm-up / end MiB "
                + "| GC pauses: count, total, max, p99 | CPU, mean while loading (100%% = one core) |");
        line("|---|---|---|---|---|---|");
        int k = 0;
        int pc = Sampler.PROCESSOR_COLUMNS.size();
        for (int i = 0; i < processors.size(); i++, k += pc) {
            Watched p = processors.get(i);
            List<Double> pauses = new ArrayList<>(pauseList.apply(i));
            Collections.sort(pauses);
            double total = pauses.stream().mapToDouble(Double::doubleValue).sum();
            line("| %s | %s | %s | %s | %d, %,.0f ms, %.0f ms, %.0f ms | %s |", p.name(), three(start, warm, end, k),
                    change(warm, end, k), three(start, warm, end, k + 1), pauses.size(), total,
                    pauses.isEmpty() ? 0 : pauses.get(pauses.size() - 1), percentile(pauses, 99),
                    cpu(rows, k + pc - 1));
        }
        for (Watched w : others) {
            line("| %s | %s | %s | | | %s |", w.name(), three(start, warm, end, k), change(warm, end, k),
                    cpu(rows, k + 1));
            k += Sampler.OTHER_COLUMNS.size();
        }
    }

    private static String three(Row a, Row b, Row c, int k) {
        return mib(a.processes()[k]) + " / " + mib(b.processes()[k]) + " / " + mib(c.processes()[k]);
    }

    private static String change(Row warm, Row end, int k) {
        double w = warm.processes()[k];
        double e = end.processes()[k];
        return Double.isNaN(w) || Double.isNaN(e) ? "-" : String.format(Locale.ROOT, "%+.1f%%", (e - w) / w * 100);
    }

    private static String mib(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.0f", v);
    }

    /** Mean of an interval CPU column over the rows of the load phase. */
    private static String cpu(List<Row> rows, int k) {
        double[] v = rows.stream().filter(r -> r.phase().equals("load")).mapToDouble(r -> r.processes()[k])
                .filter(d -> !Double.isNaN(d)).toArray();
        return v.length == 0 ? "-" : String.format(Locale.ROOT, "%.0f%%", java.util.Arrays.stream(v).average()
                .orElse(0));
    }

    private static double percentile(List<Double> sorted, double p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        int rank = (int) Math.max(1, Math.ceil(p / 100.0 * sorted.size()));
        return sorted.get(rank - 1);
    }

    private void line(String format, Object... args) {
        text.append(String.format(Locale.ROOT, format, args)).append('\n');
    }
}
