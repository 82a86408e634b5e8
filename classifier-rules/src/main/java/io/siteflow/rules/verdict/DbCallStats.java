package io.siteflow.rules.verdict;

import io.siteflow.model.CallHistogram;
import io.siteflow.model.FlowRecord;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Optional;

/**
 * The DB calls of one server towards one remote site: calls and their summed time, their {@link CallHistogram},
 * the handshake RTTs of the DB flows, and the span of the DB records (for calls per second of a cumulative
 * verdict). An accumulator like {@link PairAggregate}, which holds one; mergeable. Not thread-safe.
 */
public final class DbCallStats {
    long calls;
    long micros;
    CallHistogram histogram = CallHistogram.EMPTY;
    /** Epoch ms of the earliest start and latest end of the DB records; {@code first > last} when none. */
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    final RttHistogram rtt = new RttHistogram();

    /** Adds one record classified DB. */
    void add(FlowRecord r) {
        calls += r.dbCalls();
        micros += r.dbCallMicros();
        histogram = histogram.plus(r.dbCallHistogram());
        first = Math.min(first, r.start());
        last = Math.max(last, r.end());
        if (r.rttMicros() != null) {
            rtt.add(r.rttMicros());
        }
    }

    void merge(DbCallStats other) {
        calls += other.calls;
        micros += other.micros;
        histogram = histogram.plus(other.histogram);
        first = Math.min(first, other.first);
        last = Math.max(last, other.last);
        rtt.merge(other.rtt);
    }

    public long calls() {
        return calls;
    }

    /** Sum of the call times, µs. */
    public long micros() {
        return micros;
    }

    public CallHistogram histogram() {
        return histogram;
    }

    /** Handshake RTTs of the DB flows. */
    public RttHistogram rtt() {
        return rtt;
    }

    /**
     * The figures a verdict carries.
     *
     * @param window       the verdict's window: calls per second over its length; empty for a cumulative verdict,
     *                     whose calls per second run over the span of the DB records (at least 1 s)
     * @param pairRtt      the pair's RTTs, whose median stands in when no DB flow showed a handshake
     * @param connections  the DB connections summary
     */
    public DbCallSummary summary(Optional<Window> window, RttHistogram pairRtt, DbConnectionSummary connections) {
        long rttP50 = rtt.samples() > 0 ? rtt.percentile(50) : pairRtt.percentile(50);
        long p50 = histogram.percentile(50);
        long spanMs = window.map(w -> w.end() - w.start()).orElse(last >= first ? last - first : 0);
        BigDecimal perSecond = BigDecimal.valueOf(calls * 1000).divide(BigDecimal.valueOf(Math.max(1000, spanMs)), 2,
                RoundingMode.HALF_EVEN);
        BigDecimal share = p50 == 0 ? BigDecimal.ZERO.setScale(4)
                : BigDecimal.valueOf(Math.min(rttP50, p50)).divide(BigDecimal.valueOf(p50), 4, RoundingMode.HALF_EVEN);
        return new DbCallSummary(calls, perSecond, p50, histogram.percentile(95), histogram.percentile(99), rttP50,
                share, Math.max(0, p50 - rttP50), connections);
    }
}
