package io.siteflow.bench.soak;

import java.util.Arrays;

/**
 * Lags in whole milliseconds, counted per millisecond up to {@link #EXACT_MS} (percentiles exact there) and in one
 * overflow bucket above (its percentile reads as the largest lag seen). Not thread-safe.
 */
final class LagStats {
    static final int EXACT_MS = 120_000;
    private final long[] counts = new long[EXACT_MS + 2];
    private long n;
    private long max = -1;

    void add(long ms) {
        long m = Math.max(0, ms);
        counts[(int) Math.min(m, EXACT_MS + 1)]++;
        n++;
        max = Math.max(max, m);
    }

    long count() {
        return n;
    }

    /** The largest lag, -1 when none. */
    long max() {
        return max;
    }

    /** Nearest-rank percentile (0 &lt; p &lt;= 100); -1 when there is no lag. */
    long percentile(double p) {
        if (n == 0) {
            return -1;
        }
        long rank = Math.max(1, (long) Math.ceil(p / 100.0 * n));
        long seen = 0;
        for (int ms = 0; ms < counts.length; ms++) {
            seen += counts[ms];
            if (seen >= rank) {
                return ms > EXACT_MS ? max : ms;
            }
        }
        return max;
    }

    void reset() {
        Arrays.fill(counts, 0);
        n = 0;
        max = -1;
    }
}
