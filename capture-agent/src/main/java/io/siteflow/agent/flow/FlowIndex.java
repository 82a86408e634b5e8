package io.siteflow.agent.flow;

/**
 * Open-addressing hash index from a canonical 5-tuple to a flow slot, linear probing with backward-shift
 * deletion (no tombstones). Keys live in {@link FlowStore}; the index holds slot + 1 (0 = empty).
 * Sized at twice the flow capacity. Not thread-safe.
 */
final class FlowIndex {
    private final int[] table;
    private final int mask;
    private final FlowStore store;

    FlowIndex(int capacity, FlowStore store) {
        int size = Integer.highestOneBit(Math.max(16, capacity) * 2 - 1) << 1;
        this.table = new int[size];
        this.mask = size - 1;
        this.store = store;
    }

    /** Heap bytes of the index. */
    long footprintBytes() {
        return (long) table.length * 4;
    }

    static int hash(long aHi, long aLo, long bHi, long bLo, int ports, int proto) {
        long h = aLo * 0x9E3779B97F4A7C15L;
        h ^= bLo * 0xC2B2AE3D27D4EB4FL;
        h ^= (aHi + 31 * bHi) * 0x165667B19E3779F9L;
        h ^= ((long) ports << 8 | proto) * 0xD6E8FEB86659FD93L;
        h ^= h >>> 32;
        h *= 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 29));
    }

    /** The slot of the flow with this key, or -1. */
    int find(long aHi, long aLo, long bHi, long bLo, int ports, int proto, int hash) {
        int i = hash & mask;
        while (true) {
            int v = table[i];
            if (v == 0) {
                return -1;
            }
            int s = v - 1;
            if (store.matches(s, aHi, aLo, bHi, bLo, ports, proto)) {
                return s;
            }
            i = (i + 1) & mask;
        }
    }

    /** Adds a slot whose key is already in the store; the key must not be present. */
    void insert(int slot, int hash) {
        int i = hash & mask;
        while (table[i] != 0) {
            i = (i + 1) & mask;
        }
        table[i] = slot + 1;
    }

    /** Removes a slot whose key is in the store. */
    void remove(int slot) {
        int i = store.hash(slot) & mask;
        while (table[i] != slot + 1) {
            i = (i + 1) & mask;
        }
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            int v = table[j];
            if (v == 0) {
                break;
            }
            int home = store.hash(v - 1) & mask;
            // move j back to i when i lies cyclically within [home, j)
            boolean between = i <= j ? (home <= i || home > j) : (home <= i && home > j);
            if (between) {
                table[i] = v;
                i = j;
            }
        }
        table[i] = 0;
    }
}
