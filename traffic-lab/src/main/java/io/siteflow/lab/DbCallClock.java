package io.siteflow.lab;

import java.util.ArrayList;
import java.util.List;

/**
 * The lab's own truth about one host's DB calls, on the client's clock: every TNS exchange (the CONNECT and each
 * SQL round trip) is a call, timed from the moment its request was handed to the socket to the moment the first
 * byte of the answer was read, and the pool's connections are timed from the first connect to the last close.
 * What the agent measures at its capture point (last request segment → first response segment) differs from this
 * only by the path between the client and the capture point and the client's own latency. Thread-safe.
 */
final class DbCallClock {
    private final List<Long> micros = new ArrayList<>();
    private long openedNanos = Long.MAX_VALUE;
    private long closedNanos = Long.MIN_VALUE;

    /** A call whose request went out at {@code sentNanos} and whose answer began at {@code answeredNanos}. */
    synchronized void call(long sentNanos, long answeredNanos) {
        micros.add((answeredNanos - sentNanos) / 1_000);
    }

    /** A pool connection was being opened at {@code nanos}. */
    synchronized void opening(long nanos) {
        openedNanos = Math.min(openedNanos, nanos);
    }

    /** A pool connection was closed at {@code nanos}. */
    synchronized void closed(long nanos) {
        closedNanos = Math.max(closedNanos, nanos);
    }

    /** The calls so far. */
    synchronized DbCallTruth truth() {
        long[] sorted = micros.stream().mapToLong(Long::longValue).sorted().toArray();
        long p50 = sorted.length == 0 ? 0 : sorted[(sorted.length - 1) / 2];
        long spanMicros = closedNanos > openedNanos ? (closedNanos - openedNanos) / 1_000 : 0;
        return new DbCallTruth(sorted.length, p50, spanMicros);
    }
}
