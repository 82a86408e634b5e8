package io.siteflow.bench.soak;

/**
 * What the simulated agents produced, at one moment.
 *
 * @param offered       records handed to a producer
 * @param acked         records acknowledged by Kafka
 * @param ackedBytes    cross-site bytes ({@code bytes + rbytes}) of the acknowledged records
 * @param failed        sends that failed (records and heartbeats)
 * @param firstFailure  the first failure's text, or null
 * @param ackedOf       per agent, its records acknowledged
 * @param ackedBytesOf  per agent, its cross-site bytes acknowledged
 */
record Produced(long offered, long acked, long ackedBytes, long failed, String firstFailure, long[] ackedOf,
        long[] ackedBytesOf) {
    /** Agents whose records or bytes counted in {@code counted} differ from what they produced. */
    int unequalAgents(VerdictPoller.Totals counted) {
        int n = 0;
        for (int i = 0; i < ackedOf.length; i++) {
            if (counted.samples()[i] != ackedOf[i] || counted.crossBytes()[i] != ackedBytesOf[i]) {
                n++;
            }
        }
        return n;
    }

    /** Every record and byte produced is counted, per agent and in total. */
    boolean allCounted(VerdictPoller.Totals counted) {
        return unequalAgents(counted) == 0 && counted.records() == acked && counted.bytes() == ackedBytes;
    }
}
