package io.siteflow.rules.verdict;

import java.util.Map;
import java.util.TreeMap;

/**
 * Round-trip-time samples in microseconds, mergeable and bounded: values are kept exactly while there are at
 * most {@value #MAX_DISTINCT} distinct ones, beyond that they are rounded down to 4 significant digits
 * (error below 0.1%). Percentiles are nearest-rank. Not thread-safe.
 */
public final class RttHistogram {
    static final int MAX_DISTINCT = 4096;

    private final TreeMap<Long, Long> counts = new TreeMap<>();
    private long samples;
    private long max;
    private boolean rounded;

    /** Adds one sample; negative values are ignored. */
    public void add(long micros) {
        add(micros, 1);
    }

    void add(long micros, long count) {
        if (micros < 0 || count <= 0) {
            return;
        }
        counts.merge(rounded ? round(micros) : micros, count, Long::sum);
        samples += count;
        max = Math.max(max, micros);
        if (!rounded && counts.size() > MAX_DISTINCT) {
            rounded = true;
            TreeMap<Long, Long> copy = new TreeMap<>(counts);
            counts.clear();
            copy.forEach((v, c) -> counts.merge(round(v), c, Long::sum));
        }
    }

    /** Adds every sample of another histogram. */
    public void merge(RttHistogram other) {
        long keepMax = Math.max(max, other.max);
        other.counts.forEach(this::add);
        if (other.rounded && !rounded) {
            rounded = true;
            TreeMap<Long, Long> copy = new TreeMap<>(counts);
            counts.clear();
            copy.forEach((v, c) -> counts.merge(round(v), c, Long::sum));
        }
        max = keepMax;
    }

    static long round(long v) {
        long scale = 1;
        while (v / scale >= 10_000) {
            scale *= 10;
        }
        return v / scale * scale;
    }

    public long samples() {
        return samples;
    }

    /** Nearest-rank percentile (0 < p <= 100); 0 when there are no samples. */
    public long percentile(double p) {
        if (samples == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(p / 100.0 * samples));
        long seen = 0;
        for (Map.Entry<Long, Long> e : counts.entrySet()) {
            seen += e.getValue();
            if (seen >= rank) {
                return e.getKey();
            }
        }
        return counts.lastKey();
    }

    /** The summary a verdict carries. */
    public RttSummary summary() {
        return new RttSummary(percentile(50), percentile(95), max, samples);
    }

    /** Value to count, ascending (a copy), plus the flags needed to rebuild the histogram. */
    public Map<Long, Long> counts() {
        return new TreeMap<>(counts);
    }

    public long max() {
        return max;
    }

    public boolean rounded() {
        return rounded;
    }

    /** Rebuilds a histogram from {@link #counts()}, {@link #max()} and {@link #rounded()}. */
    public static RttHistogram of(Map<Long, Long> counts, long max, boolean rounded) {
        RttHistogram h = new RttHistogram();
        h.rounded = rounded;
        counts.forEach(h::add);
        h.max = max;
        return h;
    }
}
