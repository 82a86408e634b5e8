package io.siteflow.agent.flow;

import java.time.Duration;

/**
 * Flow table settings, validated at construction.
 *
 * @param maxFlows      flows held at once; a new flow beyond this evicts the least recently seen one
 *                      (exported early as final, counted as an eviction)
 * @param activeTimeout a flow running this long since its last record exports an interim record
 * @param idleTimeout   a flow silent this long ends
 * @param closeLinger   after FIN from both sides or RST, how long trailing packets still join the flow
 * @param dbCallTiming  true to time DB calls on {@code oracle-tns}, {@code postgresql} and {@code mysql} flows
 *                      ({@link DbCalls}); off only to measure what it costs
 */
public record FlowTableConfig(int maxFlows, Duration activeTimeout, Duration idleTimeout, Duration closeLinger,
                              boolean dbCallTiming) {

    /** Default {@link #maxFlows}. */
    public static final int DEFAULT_MAX_FLOWS = 262_144;
    /** Default {@link #activeTimeout}, in seconds. */
    public static final int DEFAULT_ACTIVE_TIMEOUT_SECONDS = 10;
    /** Default {@link #idleTimeout}, in seconds. */
    public static final int DEFAULT_IDLE_TIMEOUT_SECONDS = 30;

    public static final FlowTableConfig DEFAULTS = new FlowTableConfig(DEFAULT_MAX_FLOWS,
            Duration.ofSeconds(DEFAULT_ACTIVE_TIMEOUT_SECONDS), Duration.ofSeconds(DEFAULT_IDLE_TIMEOUT_SECONDS),
            Duration.ofSeconds(2), true);

    /** Settings with DB call timing on. */
    public FlowTableConfig(int maxFlows, Duration activeTimeout, Duration idleTimeout, Duration closeLinger) {
        this(maxFlows, activeTimeout, idleTimeout, closeLinger, true);
    }

    public FlowTableConfig {
        if (maxFlows < 16 || maxFlows > (1 << 26)) {
            throw new IllegalArgumentException("max flows must be 16-" + (1 << 26) + ", got " + maxFlows);
        }
        if (activeTimeout.isNegative() || activeTimeout.isZero()) {
            throw new IllegalArgumentException("active timeout must be positive, got " + activeTimeout);
        }
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idle timeout must be positive, got " + idleTimeout);
        }
        if (closeLinger.isNegative()) {
            throw new IllegalArgumentException("close linger must not be negative, got " + closeLinger);
        }
    }

    public FlowTableConfig withMaxFlows(int n) {
        return new FlowTableConfig(n, activeTimeout, idleTimeout, closeLinger, dbCallTiming);
    }

    public FlowTableConfig withActiveTimeout(Duration d) {
        return new FlowTableConfig(maxFlows, d, idleTimeout, closeLinger, dbCallTiming);
    }

    public FlowTableConfig withIdleTimeout(Duration d) {
        return new FlowTableConfig(maxFlows, activeTimeout, d, closeLinger, dbCallTiming);
    }

    public FlowTableConfig withDbCallTiming(boolean on) {
        return new FlowTableConfig(maxFlows, activeTimeout, idleTimeout, closeLinger, on);
    }
}
