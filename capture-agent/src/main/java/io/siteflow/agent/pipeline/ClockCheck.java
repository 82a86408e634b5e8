package io.siteflow.agent.pipeline;

import io.siteflow.agent.capture.PacketHandler;
import io.siteflow.model.wire.ClockSkew;
import java.time.Duration;
import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * Refuses packets dated in the future: a packet whose timestamp is more than {@link #MAX_AHEAD} ahead of this
 * host's clock is not passed on (so no flow record carries its time) and is counted. Such times come from a
 * capture file written by a host whose clock was ahead, or from a capture clock (adapter timestamps) that is
 * wrong; a record dated hours ahead would be refused by the broker ({@code message.timestamp.after.max.ms}, 1 h by
 * default) and, before issue 17, stopped the processor. Refusing is simpler to trust than correcting: the packets
 * are reported ({@link #problem}) and the run of a file exits 2 (input not read whole).
 *
 * <p>Cost: the host clock is read again only when a packet passes the limit computed from the last reading. One
 * thread; not thread-safe.
 */
final class ClockCheck implements PacketHandler {
    /** How far ahead of the host clock a packet may be dated: the processor's limit too ({@link ClockSkew}). */
    static final Duration MAX_AHEAD = ClockSkew.MAX_AHEAD;
    private static final long MAX_AHEAD_NANOS = MAX_AHEAD.toNanos();

    private final PacketHandler downstream;
    private final LongSupplier hostMillis;
    private long limitNanos = Long.MIN_VALUE;
    private long refused;
    private long firstRefusedNanos;
    private long hostNanosAtFirst;

    /**
     * @param downstream where packets dated in time go
     * @param hostMillis the host clock, epoch milliseconds ({@code System::currentTimeMillis}; tests give a fixed one)
     */
    ClockCheck(PacketHandler downstream, LongSupplier hostMillis) {
        this.downstream = downstream;
        this.hostMillis = hostMillis;
    }

    @Override
    public void onPacket(long ts, int linkType, byte[] data, int offset, int capLen, int wireLen) {
        if (ts > limitNanos) {
            long host = hostMillis.getAsLong() * 1_000_000L;
            limitNanos = host + MAX_AHEAD_NANOS;
            if (ts > limitNanos) {
                if (refused++ == 0) {
                    firstRefusedNanos = ts;
                    hostNanosAtFirst = host;
                }
                return;
            }
        }
        downstream.onPacket(ts, linkType, data, offset, capLen, wireLen);
    }

    @Override
    public void onIdle(long wallClockNanos) {
        downstream.onIdle(wallClockNanos);
    }

    /** Packets refused so far. */
    long refused() {
        return refused;
    }

    /**
     * What was refused, for {@code source}: {@code "SOURCE: 3 packets dated more than 5 min ahead of this host's
     * clock were skipped (the first at 2031-01-01T00:00:00Z, 1234567 s ahead of 2026-12-01T23:00:00Z): the
     * capture's clock is wrong"}; null when none was.
     */
    String problem(String source) {
        if (refused == 0) {
            return null;
        }
        return source + ": " + refused + (refused == 1 ? " packet" : " packets") + " dated more than "
                + MAX_AHEAD.toMinutes() + " min ahead of this host's clock " + (refused == 1 ? "was" : "were")
                + " skipped (the first at " + instant(firstRefusedNanos) + ", "
                + (firstRefusedNanos - hostNanosAtFirst) / 1_000_000_000L + " s ahead of " + instant(hostNanosAtFirst)
                + "): the capture's clock is wrong";
    }

    private static Instant instant(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }
}
