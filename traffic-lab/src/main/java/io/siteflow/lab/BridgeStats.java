package io.siteflow.lab;

/**
 * Counters of one direction of a {@link DelayBridge}; times in nanoseconds.
 *
 * @param name            {@code in>out}
 * @param forwarded       frames injected on the far side
 * @param sendErrors      frames libpcap refused to inject
 * @param droppedKernel   frames the capture's ring buffer dropped (never forwarded)
 * @param maxLateNanos    largest time a frame was injected after its due time
 * @param meanLateNanos   mean of that lateness
 * @param lateOver1ms     frames injected more than 1 ms after their due time
 */
public record BridgeStats(String name, long forwarded, long sendErrors, long droppedKernel, long maxLateNanos,
        long meanLateNanos, long lateOver1ms) {
}
