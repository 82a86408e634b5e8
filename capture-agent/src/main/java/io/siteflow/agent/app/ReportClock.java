package io.siteflow.agent.app;

import java.time.Instant;

/** Wall-clock time for the live report, on the clock live packet times use (nanoseconds since the epoch). */
final class ReportClock {
    private static final long SECOND = 1_000_000_000L;

    private ReportClock() {
    }

    static long nowNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * SECOND + now.getNano();
    }

    /**
     * When {@code -s seconds} ends a run started at {@code startedNanos}, as iftop's {@code -s}: at the first
     * 2-second slot end at least {@code seconds} whole seconds after the start second, so that the report sees
     * whole slots only.
     */
    static long stopAt(long startedNanos, int seconds) {
        long earliest = Math.floorDiv(startedNanos, SECOND) + seconds;
        return Math.floorDiv(earliest + 1, 2) * 2 * SECOND;
    }
}
