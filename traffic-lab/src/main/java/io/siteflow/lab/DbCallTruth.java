package io.siteflow.lab;

/**
 * One region-2 host's DB calls as the lab made and timed them ({@link DbCallClock}). Immutable.
 *
 * @param calls      TNS exchanges: one CONNECT per pool connection and every SQL round trip
 * @param p50Micros  the lower median of their call times (request handed to the socket → first answer byte), µs
 * @param spanMicros from the first pool connection's connect to the last one's close, µs
 */
public record DbCallTruth(long calls, long p50Micros, long spanMicros) {

    /** Calls per second of the span (0 without one), as the verdict's {@code dbCalls.callsPerSecond} counts them. */
    public double callsPerSecond() {
        return spanMicros == 0 ? 0 : calls * 1e6 / spanMicros;
    }
}
