package io.siteflow.bench.soak;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The soak's time series: one row per interval (about {@value SoakOptions#INTERVAL_S} s), appended to a CSV file
 * as it is made (a run cut short keeps its rows) and kept for the report. Columns: {@code t_s} (seconds since the
 * load started), {@code phase} ({@code start}, {@code load}, {@code settle}: after the last record, until the
 * verdicts count everything), {@code offered}, {@code acked}, {@code counted} (records, cumulative),
 * {@code acked_per_s} (in the interval), {@code lag_records, lag_p50_ms, lag_p99_ms, lag_max_ms} (records first
 * counted in the interval and their lag), then the {@link Sampler}'s columns. Not thread-safe.
 */
final class SoakSeries implements AutoCloseable {
    static final List<String> COLUMNS = List.of("t_s", "phase", "offered", "acked", "counted", "acked_per_s",
            "lag_records", "lag_p50_ms", "lag_p99_ms", "lag_max_ms");

    /** One row; {@code processes} in the sampler's column order. */
    record Row(double t, String phase, long offered, long acked, long counted, double ackedPerS, long lagRecords,
            long lagP50, long lagP99, long lagMax, double[] processes) {
    }

    private final BufferedWriter out;
    private final List<String> processColumns;
    private final List<Row> rows = new ArrayList<>();

    SoakSeries(Path csv, List<String> processColumns) throws IOException {
        this.processColumns = List.copyOf(processColumns);
        this.out = Files.newBufferedWriter(csv, StandardCharsets.UTF_8);
        List<String> header = new ArrayList<>(COLUMNS);
        header.addAll(processColumns);
        out.write(String.join(",", header));
        out.write('\n');
        out.flush();
    }

    void add(Row r) throws IOException {
        rows.add(r);
        out.write(line(r));
        out.write('\n');
        out.flush();
    }

    /** A row as a CSV line: numbers in plain decimal, NaN (a process gone, no GC yet) as an empty field. */
    static String line(Row r) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%.1f,%s,%d,%d,%d,%.1f,%d,%s,%s,%s", r.t(), r.phase(), r.offered(),
                r.acked(), r.counted(), r.ackedPerS(), r.lagRecords(), lag(r.lagP50()), lag(r.lagP99()),
                lag(r.lagMax())));
        for (double v : r.processes()) {
            b.append(',').append(Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.1f", v));
        }
        return b.toString();
    }

    List<Row> rows() {
        return List.copyOf(rows);
    }

    List<String> processColumns() {
        return processColumns;
    }

    private static String lag(long ms) {
        return ms < 0 ? "" : Long.toString(ms);
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
