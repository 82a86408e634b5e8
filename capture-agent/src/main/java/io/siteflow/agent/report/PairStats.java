package io.siteflow.agent.report;

/**
 * Bytes of one host pair (or port pair) in both directions: a 40-second history in twenty 2-second
 * slots (as iftop keeps it), the cumulative total and the peak 2-second rate. Not thread-safe.
 */
final class PairStats {
    static final int SLOTS = 20;
    static final long SLOT_NS = 2_000_000_000L;

    final long[] sent = new long[SLOTS];
    final long[] received = new long[SLOTS];
    long lastSlot = Long.MIN_VALUE;
    long cumulativeSent;
    long cumulativeReceived;
    long peakSentBytes;
    long peakReceivedBytes;
    long peakTotalBytes;

    void add(long slot, boolean outgoing, long bytes) {
        roll(slot);
        int i = (int) Math.floorMod(slot, (long) SLOTS);
        if (outgoing) {
            sent[i] += bytes;
            cumulativeSent += bytes;
        } else {
            received[i] += bytes;
            cumulativeReceived += bytes;
        }
        peakSentBytes = Math.max(peakSentBytes, sent[i]);
        peakReceivedBytes = Math.max(peakReceivedBytes, received[i]);
        peakTotalBytes = Math.max(peakTotalBytes, sent[i] + received[i]);
    }

    /** Moves the history forward to {@code slot}, clearing the slots skipped. */
    void roll(long slot) {
        if (lastSlot == Long.MIN_VALUE) {
            lastSlot = slot;
            return;
        }
        if (slot <= lastSlot) {
            return;
        }
        long steps = Math.min(SLOTS, slot - lastSlot);
        for (long s = 1; s <= steps; s++) {
            int i = (int) Math.floorMod(lastSlot + s, (long) SLOTS);
            sent[i] = 0;
            received[i] = 0;
        }
        lastSlot = slot;
    }

    /** Bytes per second over the last {@code slots} 2-second slots ending at {@link #lastSlot}. */
    double rate(long[] history, int slots) {
        long sum = 0;
        for (int k = 0; k < slots; k++) {
            sum += history[(int) Math.floorMod(lastSlot - k, (long) SLOTS)];
        }
        return sum / (slots * 2.0);
    }
}
