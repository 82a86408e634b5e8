package io.siteflow.rules.verdict;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * What the distance costs a server's DB calls towards one remote site, in a window or cumulative (the verdict's
 * {@code dbCalls} object). Call times are the agent's (last request segment → first response segment at the
 * capture point), percentiles over the fixed {@link io.siteflow.model.CallHistogram} buckets (within 1%). All
 * figures 0 without calls. Immutable.
 *
 * @param calls          DB calls
 * @param callsPerSecond calls per second of the window (cumulative: of the span of the DB records, at least 1 s),
 *                       2 decimals
 * @param p50            call time median, µs
 * @param p95            call time 95th percentile, µs
 * @param p99            call time 99th percentile, µs
 * @param rttMicros      handshake RTT median of the pair's DB flows (of all its flows when no DB flow showed one)
 * @param networkShare   {@code min(rttMicros, p50) / p50}, 4 decimals: the part of a DB call the distance costs
 * @param serviceP50     {@code p50 - rttMicros}, floored at 0: the database's part
 * @param connections    concurrent DB connections per minute (moved here from the verdict's {@code dbConnections})
 */
public record DbCallSummary(long calls, BigDecimal callsPerSecond, long p50, long p95, long p99, long rttMicros,
                            BigDecimal networkShare, long serviceP50, DbConnectionSummary connections) {
    /** No calls, no connections. */
    public static final DbCallSummary NONE = new DbCallSummary(0, BigDecimal.ZERO.setScale(2), 0, 0, 0, 0,
            BigDecimal.ZERO.setScale(4), 0, DbConnectionSummary.NONE);

    public DbCallSummary {
        Objects.requireNonNull(callsPerSecond, "callsPerSecond");
        Objects.requireNonNull(networkShare, "networkShare");
        Objects.requireNonNull(connections, "connections");
    }

    /** True when {@code networkShare} is above {@code budget} (a site model's {@code dbCallBudget.networkShare}). */
    public boolean exceeds(BigDecimal budget) {
        return calls > 0 && networkShare.compareTo(budget) > 0;
    }
}
