package io.siteflow.processor.query;

/**
 * One line of the top-talkers view: a host pair and category (or a port pair), rates in bytes per second over
 * the last 2, 10 and 40 seconds of event time, cumulative bytes and the peak rate, per direction (out = from
 * {@code local} to {@code remote}), and {@code ageMs}, how long ago (wall clock) its newest record arrived.
 */
public record TalkerRow(String local, int localPort, String remote, int remotePort, String category,
        double out2s, double out10s, double out40s, long outTotal, double outPeak,
        double in2s, double in10s, double in40s, long inTotal, double inPeak, long ageMs) {
}
