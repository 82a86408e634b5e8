package io.siteflow.agent.report;

/**
 * The slots a report covers: those ending at {@code newest} (the last slot that ended by the report's time), and
 * how each rate column divides, as iftop's {@code history_length}: by the column's span (2, 10 or 40 s) once that
 * many slots were seen since {@code first}, before that by the slots seen times 2 s.
 *
 * @param newest the newest complete slot
 * @param first  the first slot of the capture ({@code Long.MIN_VALUE}: nothing seen)
 */
record Window(long newest, long first) {
    /** Slots per column: iftop's {@code history_divs}. */
    static final int[] COLUMN_SLOTS = {1, 5, 20};

    /** Complete slots seen since the start, at most {@link History#SLOTS}; 0 before the first ended. */
    int seen() {
        if (first == Long.MIN_VALUE || newest < first) {
            return 0;
        }
        return (int) Math.min(History.SLOTS, newest - first + 1);
    }

    /** Seconds column {@code c} divides by; 0 while no slot has ended. */
    int seconds(int c) {
        return Math.min(seen(), COLUMN_SLOTS[c]) * (int) (History.SLOT_NS / 1_000_000_000L);
    }

    /** Bytes per second of {@code history} in column {@code c} (0 while no slot has ended). */
    double rate(History h, long[] history, int c) {
        int s = seconds(c);
        return s == 0 ? 0 : (double) h.sum(history, newest, COLUMN_SLOTS[c]) / s;
    }
}
