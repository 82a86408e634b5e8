package io.siteflow.rules.verdict;

/**
 * A tumbling event-time window {@code [start, end)} in epoch milliseconds. A flow record belongs to the
 * window that holds its {@code start}. Immutable.
 *
 * @param start first millisecond of the window, a multiple of its size
 * @param end   first millisecond after the window
 */
public record Window(long start, long end) {
    /** Default window size: one minute. */
    public static final long DEFAULT_SIZE_MS = 60_000L;

    public Window {
        if (end <= start) {
            throw new IllegalArgumentException("window end " + end + " is not after start " + start);
        }
    }

    /** The window of size {@code sizeMs} that holds {@code timeMs} (windows are aligned to the epoch). */
    public static Window of(long timeMs, long sizeMs) {
        if (sizeMs <= 0) {
            throw new IllegalArgumentException("window size must be positive: " + sizeMs);
        }
        long start = Math.floorDiv(timeMs, sizeMs) * sizeMs;
        return new Window(start, start + sizeMs);
    }
}
