package io.siteflow.processor.query;

import java.util.Objects;
import java.util.Optional;

/**
 * What {@code /health} says about this processor: {@link Status#UP} while Kafka Streams is RUNNING or REBALANCING
 * (after it first ran), {@link Status#STARTING} before it first ran, {@link Status#DOWN} otherwise (failed, being
 * restarted, stopping), with the reason for people. Immutable.
 *
 * @param status the status
 * @param reason why it is not UP, empty when it is (or when nobody said)
 */
public record ProcessorHealth(Status status, Optional<String> reason) {
    /** The status {@code /health} answers 200 for ({@link #UP}) or 503 (the others). */
    public enum Status { UP, STARTING, DOWN }

    /** Kafka Streams is RUNNING or REBALANCING. */
    public static final ProcessorHealth UP = new ProcessorHealth(Status.UP, Optional.empty());

    public ProcessorHealth {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(reason, "reason");
    }

    /** Not running yet, for {@code reason} (null: none given). */
    public static ProcessorHealth starting(String reason) {
        return new ProcessorHealth(Status.STARTING, Optional.ofNullable(reason));
    }

    /** Not running, for {@code reason}. */
    public static ProcessorHealth down(String reason) {
        return new ProcessorHealth(Status.DOWN, Optional.of(reason));
    }

    /** True for {@link Status#UP}. */
    public boolean up() {
        return status == Status.UP;
    }
}
