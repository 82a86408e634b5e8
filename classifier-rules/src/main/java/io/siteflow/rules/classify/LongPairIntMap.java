package io.siteflow.rules.classify;

/**
 * An open-addressing hash map from a 128-bit key (two longs) to a non-negative int, built once and then
 * read-only: no boxing, no allocation on lookup. Safe to read from many threads after construction.
 */
final class LongPairIntMap {
    private final long[] hi;
    private final long[] lo;
    private final int[] values;
    private final int mask;
    private int size;

    LongPairIntMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(4, expected * 2 + 1) - 1) << 1;
        hi = new long[cap];
        lo = new long[cap];
        values = new int[cap];
        mask = cap - 1;
    }

    /** Adds or replaces a mapping; {@code value} must be {@code >= 0}. Only during construction. */
    void put(long keyHi, long keyLo, int value) {
        if (size * 2 >= values.length) {
            throw new IllegalStateException("map built too small");
        }
        int i = slot(keyHi, keyLo);
        while (values[i] != 0 && !(hi[i] == keyHi && lo[i] == keyLo)) {
            i = (i + 1) & mask;
        }
        if (values[i] == 0) {
            size++;
        }
        hi[i] = keyHi;
        lo[i] = keyLo;
        values[i] = value + 1;
    }

    /** The value, or -1 when the key is absent. */
    int get(long keyHi, long keyLo) {
        int i = slot(keyHi, keyLo);
        int v;
        while ((v = values[i]) != 0) {
            if (hi[i] == keyHi && lo[i] == keyLo) {
                return v - 1;
            }
            i = (i + 1) & mask;
        }
        return -1;
    }

    int size() {
        return size;
    }

    private int slot(long keyHi, long keyLo) {
        long h = keyHi * 0x9E3779B97F4A7C15L + keyLo;
        h = (h ^ (h >>> 32)) * 0xD6E8FEB86659FD93L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
