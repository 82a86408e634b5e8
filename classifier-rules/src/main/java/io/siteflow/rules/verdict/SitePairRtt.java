package io.siteflow.rules.verdict;

/**
 * Round-trip times between two sites over every flow with a handshake sample, either direction.
 *
 * @param siteA the first site by name
 * @param siteB the second site by name
 * @param rtt   the samples' summary
 */
public record SitePairRtt(String siteA, String siteB, RttSummary rtt) {
    /** Oracle does not support a stretched FMW cluster above this round-trip time. */
    public static final long ORACLE_LIMIT_MICROS = 10_000L;

    /** True when the 95th percentile is above Oracle's 10 ms limit. */
    public boolean aboveLimit() {
        return rtt.p95() > ORACLE_LIMIT_MICROS;
    }
}
