package io.siteflow.agent.flow;

import io.siteflow.model.CallHistogram;
import java.util.Map;
import java.util.TreeMap;

/**
 * The DB call state of one flow ({@link DbCalls}): where the conversation is (request or response run), when
 * the last request segment was seen, the highest sequence end per direction (to tell retransmissions), and the
 * calls of the current record with their sparse histogram over {@link CallHistogram}'s buckets. Reused through
 * {@link DbCalls}'s pool; not thread-safe.
 */
final class CallState {
    static final int IDLE = 0;
    static final int REQUEST = 1;
    static final int RESPONSE = 2;

    int phase;
    long lastRequestNs;
    int clientSeqEnd;
    int serverSeqEnd;
    boolean clientSeqKnown;
    boolean serverSeqKnown;
    /** Calls of the current record and the sum of their times. */
    long calls;
    long micros;
    /** bucket, count pairs of the current record, {@link #used} pairs in use. */
    private int[] pairs = new int[16];
    private int used;

    void clear() {
        phase = IDLE;
        lastRequestNs = 0;
        clientSeqKnown = false;
        serverSeqKnown = false;
        clearRecord();
    }

    void clearRecord() {
        calls = 0;
        micros = 0;
        used = 0;
    }

    /** Counts one call that took {@code nanos}. */
    void count(long nanos) {
        long us = Math.max(0, nanos / 1000);
        calls++;
        micros += us;
        int b = CallHistogram.bucketOf(us);
        for (int i = 0; i < used; i++) {
            if (pairs[2 * i] == b) {
                pairs[2 * i + 1]++;
                return;
            }
        }
        if (2 * used + 2 > pairs.length) {
            pairs = java.util.Arrays.copyOf(pairs, pairs.length * 2);
        }
        pairs[2 * used] = b;
        pairs[2 * used + 1] = 1;
        used++;
    }

    CallHistogram histogram() {
        if (used == 0) {
            return CallHistogram.EMPTY;
        }
        Map<Integer, Long> m = new TreeMap<>();
        for (int i = 0; i < used; i++) {
            m.put(pairs[2 * i], (long) pairs[2 * i + 1]);
        }
        return CallHistogram.of(m);
    }
}
