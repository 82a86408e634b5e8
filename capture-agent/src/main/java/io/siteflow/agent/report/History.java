package io.siteflow.agent.report;

/**
 * The bytes of one host pair (or of all traffic) as iftop keeps them: twenty 2-second slots per direction (the
 * last 40 s) and the cumulative count. A slot is {@code floor(nanos / SLOT_NS)}. One more slot than iftop's is
 * kept: the one still filling when a report is printed, which iftop never has. Not thread-safe.
 */
final class History {
    /** Slots kept: iftop's {@code HISTORY_LENGTH}. */
    static final int SLOTS = 20;
    /** One slot: iftop's {@code RESOLUTION}, 2 s. */
    static final long SLOT_NS = 2_000_000_000L;

    private static final int RING = SLOTS + 1;

    final long[] sent = new long[RING];
    final long[] received = new long[RING];
    long lastSlot = Long.MIN_VALUE;
    long cumulativeSent;
    long cumulativeReceived;

    void add(long slot, boolean outgoing, long bytes) {
        roll(slot);
        int i = index(slot);
        if (outgoing) {
            sent[i] += bytes;
            cumulativeSent += bytes;
        } else {
            received[i] += bytes;
            cumulativeReceived += bytes;
        }
    }

    /** Bytes of {@code history} in the {@code count} slots ending at {@code newest}. */
    long sum(long[] history, long newest, int count) {
        long sum = 0;
        for (int k = 0; k < count; k++) {
            sum += at(history, newest - k);
        }
        return sum;
    }

    /** The largest slot of {@code a} (plus {@code b} when given) among the {@link #SLOTS} ending at {@code newest}. */
    long peak(long[] a, long[] b, long newest) {
        long peak = 0;
        for (int k = 0; k < SLOTS; k++) {
            peak = Math.max(peak, at(a, newest - k) + (b == null ? 0 : at(b, newest - k)));
        }
        return peak;
    }

    /** Moves the history forward to {@code slot}, clearing the slots skipped; an older slot changes nothing. */
    private void roll(long slot) {
        if (lastSlot != Long.MIN_VALUE && slot > lastSlot) {
            long steps = Math.min(RING, slot - lastSlot);
            for (long s = 1; s <= steps; s++) {
                sent[index(lastSlot + s)] = 0;
                received[index(lastSlot + s)] = 0;
            }
        }
        lastSlot = Math.max(lastSlot, slot);
    }

    private long at(long[] history, long slot) {
        return slot <= lastSlot && slot > lastSlot - RING ? history[index(slot)] : 0;
    }

    private static int index(long slot) {
        return (int) Math.floorMod(slot, (long) RING);
    }
}
