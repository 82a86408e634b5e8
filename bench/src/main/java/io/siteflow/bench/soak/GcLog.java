package io.siteflow.bench.soak;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JVM's {@code -Xlog:gc} file read as it grows: the pauses since the last {@link #take} and the heap after the
 * latest one. Reads the unified-logging pause lines of the Parallel and G1 collectors, e.g.
 * {@code [3.456s][info][gc] GC(0) Pause Young (Allocation Failure) 65M->9M(251M) 8.123ms}. Not thread-safe.
 */
final class GcLog {
    private static final Pattern PAUSE = Pattern.compile(
            "GC\\(\\d+\\) Pause .*? (\\d+)([KMG])->(\\d+)([KMG])\\((\\d+)([KMG])\\) ([0-9.]+)ms");

    /**
     * One pause.
     *
     * @param ms          its length, ms
     * @param afterMiB    heap used after it, MiB
     * @param committedMiB heap committed after it, MiB
     */
    record Pause(double ms, double afterMiB, double committedMiB) {
    }

    /**
     * The pauses of one interval and the heap after the latest pause so far (NaN before the first).
     */
    record Interval(int pauses, double totalMs, double maxMs, double heapAfterMiB, double committedMiB) {
    }

    private final Path file;
    private long position;
    private final StringBuilder partial = new StringBuilder();
    private final List<Double> all = new ArrayList<>();
    private int pauses;
    private double totalMs;
    private double maxMs;
    private double heapAfter = Double.NaN;
    private double committed = Double.NaN;

    GcLog(Path file) {
        this.file = file;
    }

    /** The pause a log line tells, if it is one. */
    static Optional<Pause> parse(String line) {
        Matcher m = PAUSE.matcher(line);
        if (!m.find()) {
            return Optional.empty();
        }
        return Optional.of(new Pause(Double.parseDouble(m.group(7)), mib(m.group(3), m.group(4)),
                mib(m.group(5), m.group(6))));
    }

    /** Reads what the JVM appended, then returns the interval's pauses and starts a new interval. */
    Interval take() throws IOException {
        read();
        Interval i = new Interval(pauses, totalMs, maxMs, heapAfter, committed);
        pauses = 0;
        totalMs = 0;
        maxMs = 0;
        return i;
    }

    /** Every pause's length so far, ms, in order. */
    List<Double> all() {
        return List.copyOf(all);
    }

    private void read() throws IOException {
        if (!Files.exists(file)) {
            return;
        }
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            if (f.length() < position) {
                position = 0; // rotated or truncated
            }
            f.seek(position);
            byte[] buf = new byte[(int) Math.min(f.length() - position, 1 << 24)];
            f.readFully(buf);
            position += buf.length;
            partial.append(new String(buf, StandardCharsets.UTF_8));
        }
        int nl;
        while ((nl = partial.indexOf("\n")) >= 0) {
            parse(partial.substring(0, nl)).ifPresent(this::add);
            partial.delete(0, nl + 1);
        }
    }

    private void add(Pause p) {
        pauses++;
        totalMs += p.ms();
        maxMs = Math.max(maxMs, p.ms());
        heapAfter = p.afterMiB();
        committed = p.committedMiB();
        all.add(p.ms());
    }

    private static double mib(String n, String unit) {
        double v = Double.parseDouble(n);
        return switch (unit) {
            case "K" -> v / 1024;
            case "G" -> v * 1024;
            default -> v;
        };
    }
}
