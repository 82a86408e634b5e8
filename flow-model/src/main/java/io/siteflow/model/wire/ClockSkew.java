package io.siteflow.model.wire;

import java.time.Duration;

/**
 * How far ahead of the reader's clock an event time may be: the one limit the agent applies to packet times
 * (packets dated later are skipped and reported) and the stream processor to record start times (records dated
 * later are dead letters). Kafka refuses records dated more than {@code message.timestamp.after.max.ms} (1 h by
 * default) ahead of the broker's clock, so a record dated hours ahead would stop whatever writes it; NTP-synchronised
 * clocks differ by far less than this limit. Constants and a pure function; thread-safe.
 */
public final class ClockSkew {
    /** The most an event may be dated ahead of the clock that reads it. */
    public static final Duration MAX_AHEAD = Duration.ofMinutes(5);
    private static final long MAX_AHEAD_MILLIS = MAX_AHEAD.toMillis();

    private ClockSkew() {
    }

    /** True when {@code eventMillis} is more than {@link #MAX_AHEAD} after {@code clockMillis} (epoch ms both). */
    public static boolean tooFarAhead(long eventMillis, long clockMillis) {
        return eventMillis - clockMillis > MAX_AHEAD_MILLIS;
    }
}
