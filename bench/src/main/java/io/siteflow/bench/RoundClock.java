package io.siteflow.bench;

import java.util.Locale;

/**
 * The timed rounds of a reader that goes through {@code warmup + rounds × n} records in order (the bare consumer,
 * the Kafka Streams floor): when each round's first record was reached and when the last one was done, and the
 * rounds' rates. Written by the one reading thread; read {@link #rates} after it has stopped.
 */
final class RoundClock {
    private final int warmup;
    private final int n;
    private final int rounds;
    private final long total;
    private final long[] at;

    RoundClock(int warmup, int n, int rounds) {
        this.warmup = warmup;
        this.n = n;
        this.rounds = rounds;
        this.total = warmup + (long) n * rounds;
        this.at = new long[rounds + 1];
    }

    /** The number of records the reader must go through. */
    long total() {
        return total;
    }

    /** Before the reader handles record {@code i} (0-based, in reading order). */
    void before(long i) {
        if (i >= warmup && i < total && (i - warmup) % n == 0) {
            at[(int) ((i - warmup) / n)] = System.nanoTime();
        }
    }

    /** After the reader has handled record {@code i}. */
    void after(long i) {
        if (i == total - 1) {
            at[rounds] = System.nanoTime();
        }
    }

    /** Records/s of each round, each printed as {@code streams-bench: <what> round k: ...}. */
    double[] rates(String what) {
        double[] rates = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            double s = (at[i + 1] - at[i]) / 1e9;
            rates[i] = n / s;
            System.err.printf(Locale.ROOT, "streams-bench: %s round %d: %d records in %.2f s%n", what, i + 1, n, s);
        }
        return rates;
    }
}
