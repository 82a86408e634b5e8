package io.siteflow.rules.verdict;

import io.siteflow.rules.model.RttLimit;
import java.util.Objects;

/**
 * Round-trip times between two sites over every flow with a handshake sample, either direction.
 *
 * @param siteA the first site by name
 * @param siteB the second site by name
 * @param rtt   the samples' summary
 * @param limit the RTT limit in force ({@link io.siteflow.rules.model.SiteModel#rttLimit()})
 */
public record SitePairRtt(String siteA, String siteB, RttSummary rtt, RttLimit limit) {
    /** Oracle does not support a stretched FMW cluster above this round-trip time. */
    public static final long ORACLE_LIMIT_MICROS = RttLimit.ORACLE_MICROS;

    public SitePairRtt {
        Objects.requireNonNull(limit, "limit");
    }

    /** A pair judged against Oracle's 10 ms limit alone. */
    public SitePairRtt(String siteA, String siteB, RttSummary rtt) {
        this(siteA, siteB, rtt, RttLimit.ORACLE);
    }

    /** True when the 95th percentile is above {@link #limit()}. */
    public boolean aboveLimit() {
        return limit.exceededBy(rtt.p95());
    }

    /** True when the 95th percentile is above Oracle's 10 ms limit, whatever the site model's. */
    public boolean aboveOracleLimit() {
        return rtt.p95() > ORACLE_LIMIT_MICROS;
    }
}
