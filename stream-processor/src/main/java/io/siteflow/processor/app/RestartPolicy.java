package io.siteflow.processor.app;

import java.time.Duration;
import java.util.Optional;

/**
 * When {@code siteflow process} restarts Kafka Streams after it failed (state ERROR: a stream thread that shut the
 * client down, or the global thread, which Kafka Streams never replaces): after {@link #FIRST}, doubling with every
 * failure in a row up to {@link #MAX}; a failure in a row is one before Kafka Streams reached RUNNING again. After
 * {@link #GIVE_UP_AFTER} restarts in a row that never ran, it gives up (the processor stops, exit 1): a failure
 * that a restart does not cure is not hidden behind an endless loop. Thread-safe.
 */
final class RestartPolicy {
    static final Duration FIRST = Duration.ofSeconds(1);
    static final Duration MAX = Duration.ofSeconds(60);
    static final int GIVE_UP_AFTER = 5;
    private int inARow;

    /**
     * Kafka Streams failed: how long to wait before the next restart, empty when it is time to give up.
     */
    synchronized Optional<Duration> failed() {
        if (inARow >= GIVE_UP_AFTER) {
            return Optional.empty();
        }
        Duration d = FIRST.multipliedBy(1L << Math.min(inARow, 16));
        inARow++;
        return Optional.of(d.compareTo(MAX) > 0 ? MAX : d);
    }

    /** Kafka Streams reached RUNNING: the next failure waits {@link #FIRST} again. */
    synchronized void running() {
        inARow = 0;
    }

    /** Restarts in a row since Kafka Streams last ran. */
    synchronized int inARow() {
        return inARow;
    }
}
