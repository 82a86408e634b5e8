package io.siteflow.agent.report;

/** One line of the report: two ends (ports 0 without {@code -P}) and the IP protocol (0 without {@code -P}). */
record PairKey(long lHi, long lLo, int lPort, long rHi, long rLo, int rPort, int protocol) {
    PairKey reversed() {
        return new PairKey(rHi, rLo, rPort, lHi, lLo, lPort, protocol);
    }
}
