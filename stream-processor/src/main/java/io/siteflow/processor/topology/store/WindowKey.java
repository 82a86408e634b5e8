package io.siteflow.processor.topology.store;

import java.util.Objects;

/**
 * One tumbling window of an audited pair, as the open-window store keys it: the text
 * {@code server|remoteSite|windowStart} ({@link #encode()}), written and read here only. Immutable.
 *
 * @param pair        the pair
 * @param windowStart the window's start, epoch ms
 */
public record WindowKey(PairKey pair, long windowStart) {
    public WindowKey {
        Objects.requireNonNull(pair, "pair");
    }

    /** {@code server|remoteSite|windowStart}. */
    public String encode() {
        return pair.encoded() + "|" + windowStart;
    }

    /**
     * Reads {@link #encode()} text.
     *
     * @throws IllegalArgumentException when the text is not of that form
     */
    public static WindowKey decode(String text) {
        int bar = text.lastIndexOf('|');
        if (bar < 0) {
            throw new IllegalArgumentException("not a window key (server|remoteSite|windowStart): " + text);
        }
        return new WindowKey(PairKey.decode(text.substring(0, bar)), Long.parseLong(text.substring(bar + 1)));
    }
}
