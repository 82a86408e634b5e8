package io.siteflow.model;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * A histogram of DB call times in microseconds over the fixed log-spaced buckets every part of siteflow uses
 * (flow-model/docs/contracts.md, "DB call buckets"): bucket 0 holds 0 µs; bucket {@code i} (1 to
 * {@value #LAST}) holds {@code [1.02^(i-1), 1.02^i)} µs, so every bucket is 2% wide; the last bucket also holds
 * every time from {@code 1.02^(LAST-1)} µs (about 17 min) up. {@link #bucketOf} uses {@link StrictMath}, so
 * the agent, the audit and the processor bucket a time alike on every JVM.
 *
 * <p>A percentile is the geometric middle of the bucket that holds the nearest-rank sample, rounded to whole µs,
 * so it is within 1% of that sample plus 0.5 µs of rounding (0.1% at a 500 µs call).
 *
 * <p>Immutable and thread-safe; {@link #EMPTY} has no calls. Buckets are kept sparse (non-empty ones only,
 * ascending).
 */
public final class CallHistogram {
    /** The highest bucket index. */
    public static final int LAST = 1048;
    /** Bucket width: each bucket's upper bound is its lower bound times this. */
    public static final double RATIO = 1.02;
    private static final double LOG_RATIO = StrictMath.log(RATIO);

    /** The histogram without calls. */
    public static final CallHistogram EMPTY = new CallHistogram(new int[0], new long[0]);

    private final int[] buckets;
    private final long[] counts;

    private CallHistogram(int[] buckets, long[] counts) {
        this.buckets = buckets;
        this.counts = counts;
    }

    /** The bucket of a call time in µs (negative times count as 0). */
    public static int bucketOf(long micros) {
        if (micros <= 0) {
            return 0;
        }
        int b = (int) StrictMath.floor(StrictMath.log(micros) / LOG_RATIO) + 1;
        // guard against rounding at the exact bucket edges
        if (b > 1 && lowerBound(b) > micros) {
            b--;
        } else if (b < LAST && lowerBound(b + 1) <= micros) {
            b++;
        }
        return Math.min(Math.max(b, 1), LAST);
    }

    /** The smallest time (µs, fractional) of a bucket: 0 for bucket 0, else {@code 1.02^(b-1)}. */
    public static double lowerBound(int bucket) {
        return bucket <= 0 ? 0 : StrictMath.pow(RATIO, bucket - 1);
    }

    /** The value that stands for a bucket, µs rounded to the nearest integer: its geometric middle. */
    public static long representative(int bucket) {
        if (bucket <= 0) {
            return 0;
        }
        return Math.round(StrictMath.pow(RATIO, bucket - 0.5));
    }

    /**
     * A histogram from bucket → count pairs.
     *
     * @throws IllegalArgumentException for a bucket outside 0-{@value #LAST} or a count below 1
     */
    public static CallHistogram of(Map<Integer, Long> bucketCounts) {
        if (bucketCounts.isEmpty()) {
            return EMPTY;
        }
        TreeMap<Integer, Long> sorted = new TreeMap<>(bucketCounts);
        int[] b = new int[sorted.size()];
        long[] c = new long[sorted.size()];
        int i = 0;
        for (Map.Entry<Integer, Long> e : sorted.entrySet()) {
            if (e.getKey() < 0 || e.getKey() > LAST) {
                throw new IllegalArgumentException("bucket " + e.getKey() + " is out of range (0-" + LAST + ")");
            }
            if (e.getValue() < 1) {
                throw new IllegalArgumentException("bucket " + e.getKey() + ": count " + e.getValue()
                        + " is below 1");
            }
            b[i] = e.getKey();
            c[i++] = e.getValue();
        }
        return new CallHistogram(b, c);
    }

    /** Bucket → count, ascending (a copy). */
    public Map<Integer, Long> toMap() {
        TreeMap<Integer, Long> m = new TreeMap<>();
        for (int i = 0; i < buckets.length; i++) {
            m.put(buckets[i], counts[i]);
        }
        return m;
    }

    /** The calls counted. */
    public long total() {
        long t = 0;
        for (long c : counts) {
            t += c;
        }
        return t;
    }

    public boolean isEmpty() {
        return buckets.length == 0;
    }

    /** This histogram plus another. */
    public CallHistogram plus(CallHistogram other) {
        if (other.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        Map<Integer, Long> m = toMap();
        for (int i = 0; i < other.buckets.length; i++) {
            m.merge(other.buckets[i], other.counts[i], Long::sum);
        }
        return of(m);
    }

    /**
     * Nearest-rank percentile (0 &lt; p &le; 100) as the {@link #representative} of the bucket holding it; 0
     * when empty.
     */
    public long percentile(double p) {
        long total = total();
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(p / 100.0 * total));
        long seen = 0;
        for (int i = 0; i < buckets.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return representative(buckets[i]);
            }
        }
        return representative(buckets[buckets.length - 1]);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CallHistogram h && Arrays.equals(buckets, h.buckets) && Arrays.equals(counts, h.counts);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(buckets) + Arrays.hashCode(counts);
    }

    @Override
    public String toString() {
        return toMap().toString();
    }
}
