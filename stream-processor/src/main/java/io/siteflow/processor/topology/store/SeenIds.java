package io.siteflow.processor.topology.store;

import java.nio.charset.StandardCharsets;

/**
 * An in-memory Bloom filter over the record ids one task has put in its dedupe store since it started, valid for
 * records newer than {@link #coveredAfter()}: a record with a later event time whose id the filter has never seen
 * is certainly new, and the store is not read (a RocksDB read of an absent key is the dedupe step's largest
 * cost). Anything else is checked in the store, so the answer stays exact. When {@value #CAPACITY} ids have been
 * added the filter starts again, covering only what comes after the newest time it had seen. About 1% false
 * positives (each costs one store read), 4.6 MiB per task. Hand-written: it is on the hot path (see
 * docs/BENCHMARKS.md). Not thread-safe (one per task).
 */
public final class SeenIds {
    static final int CAPACITY = 4_000_000;
    private static final int BITS = 1 << 25; // 9.6 bits per id at capacity: ~1% false positives with 7 hashes
    private static final int HASHES = 7;
    private final long[] words = new long[BITS / 64];
    private int added;
    private long coveredAfter;
    private long newest;

    /** A filter for a store whose ids all have event times at or before {@code storeNewest}. */
    public SeenIds(long storeNewest) {
        this.coveredAfter = storeNewest;
        this.newest = storeNewest;
    }

    /** True when the id is certainly not in the store: its time is covered and the filter never saw it. */
    public boolean certainlyNew(String id, long time) {
        if (time <= coveredAfter) {
            return false;
        }
        long h = hash(id);
        int h1 = (int) h;
        int h2 = (int) (h >>> 32);
        for (int i = 0; i < HASHES; i++) {
            int bit = (h1 + i * h2) & (BITS - 1);
            if ((words[bit >>> 6] & (1L << bit)) == 0) {
                return true;
            }
        }
        return false;
    }

    /** Records that the id is now in the store with this event time. */
    public void add(String id, long time) {
        if (added == CAPACITY) {
            java.util.Arrays.fill(words, 0);
            added = 0;
            coveredAfter = newest;
        }
        long h = hash(id);
        int h1 = (int) h;
        int h2 = (int) (h >>> 32);
        for (int i = 0; i < HASHES; i++) {
            int bit = (h1 + i * h2) & (BITS - 1);
            words[bit >>> 6] |= 1L << bit;
        }
        added++;
        newest = Math.max(newest, time);
    }

    /** The newest event time added (or the store's at start). */
    public long newest() {
        return newest;
    }

    /** Event times at or before this are not covered (always read the store). */
    public long coveredAfter() {
        return coveredAfter;
    }

    /** 64-bit FNV-1a over the UTF-8 bytes, then a murmur3 finaliser for the high bits. */
    static long hash(String id) {
        long h = 0xcbf29ce484222325L;
        for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }
}
