package io.siteflow.rules.verdict;

/**
 * Round-trip times of a set of flows, in microseconds; all zero when there is no sample.
 *
 * @param p50     median (nearest rank)
 * @param p95     95th percentile (nearest rank)
 * @param max     largest sample
 * @param samples number of samples
 */
public record RttSummary(long p50, long p95, long max, long samples) {
    public static final RttSummary NONE = new RttSummary(0, 0, 0, 0);
}
