package io.siteflow.processor.topology.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The record ids of the agent's form {@code <run>-<counter>} (DESIGN.md: agent run id + a per-agent counter) one
 * task has seen, as one bit per counter: store entry {@code run|n} holds counters {@code n * 4096} to
 * {@code n * 4096 + 4095} and the newest event time among them ({@link Chunk}, 520 bytes). Records of one run
 * come in counter order, so a commit interval touches one or two entries per run and writes each once
 * ({@link WriteBehind}), where one store entry per id wrote a changelog record per record (the dedupe step's
 * largest cost). An entry whose newest event time is older than the dedupe retention, measured from the newest
 * event time the task has seen, is deleted by a sweep every hour of event time, as a window store drops its old
 * segments. Not thread-safe (one per task).
 */
public final class SeenRuns {
    static final int CHUNK_SHIFT = 12;
    private static final int WORDS = (1 << CHUNK_SHIFT) / 64;
    private static final long SWEEP_EVERY_MS = 3_600_000L;
    private final WriteBehind<Chunk> chunks;
    private final long retentionMs;
    private long newest = Long.MIN_VALUE;
    private long sweptAt = Long.MIN_VALUE;
    /** The run, chunk number and chunk of the last id: marked changed, in the store at the next flush. */
    private String lastRun;
    private long lastN;
    private Chunk last;

    public SeenRuns(KeyValueStore<String, Chunk> store, long retentionMs) {
        // a run fills a chunk and moves on: keep at most ~0.5 MB of them in memory
        this.chunks = new WriteBehind<>(store, 1_000);
        this.retentionMs = retentionMs;
    }

    /**
     * The counter of an id of the form {@code <run>-<counter>}: a non-empty run, then a decimal counter without
     * sign or leading zero, below 10^18 ({@code dash} = the id's last '-'); -1 for any other id, so that two
     * different ids never map to the same run and counter.
     */
    public static long counter(String id, int dash) {
        int digits = id.length() - dash - 1;
        if (dash < 1 || digits < 1 || digits > 18 || (digits > 1 && id.charAt(dash + 1) == '0')) {
            return -1;
        }
        long c = 0;
        for (int i = dash + 1; i < id.length(); i++) {
            char ch = id.charAt(i);
            if (ch < '0' || ch > '9') {
                return -1;
            }
            c = c * 10 + (ch - '0');
        }
        return c;
    }

    /**
     * Marks the id's (run, counter) seen at event time {@code time}; false when it had been seen before.
     *
     * @param id      an id of the form {@code <run>-<counter>}
     * @param dash    its last '-'
     * @param counter its counter ({@link #counter})
     */
    public boolean firstTime(String id, int dash, long counter, long time) {
        long n = chunkOf(counter);
        // records of one run come in counter order: mostly in the chunk of the record before
        boolean sameChunk = last != null && n == lastN && dash == lastRun.length() && id.startsWith(lastRun);
        String run = null;
        String key = null;
        Chunk c = last;
        if (!sameChunk) {
            run = id.substring(0, dash);
            key = run + '|' + n;
            c = chunks.get(key);
            if (c == null) {
                c = new Chunk(newChunkBits(), time);
            }
        }
        if (!markIn(c.bits, counter)) {
            return false;
        }
        c.newest = Math.max(c.newest, time);
        newest = Math.max(newest, time);
        if (!sameChunk) {
            chunks.put(key, c);
            lastRun = run;
            lastN = n;
            last = c;
        }
        return true;
    }

    /** The chunk of 4,096 counters that holds {@code counter}: its number within the run. */
    public static long chunkOf(long counter) {
        return counter >>> CHUNK_SHIFT;
    }

    /** A new chunk's bits, none set. */
    public static long[] newChunkBits() {
        return new long[WORDS];
    }

    /** Sets {@code counter}'s bit in its chunk's {@code bits}; false when it was set already. */
    public static boolean markIn(long[] bits, long counter) {
        int bit = (int) (counter & ((1 << CHUNK_SHIFT) - 1));
        long mask = 1L << bit;
        if ((bits[bit >>> 6] & mask) != 0) {
            return false;
        }
        bits[bit >>> 6] |= mask;
        return true;
    }

    /** Writes the changed entries (the task commits); every hour of event time, deletes the expired ones. */
    public void flush() {
        chunks.flush();
        lastRun = null;
        last = null;
        if (newest != Long.MIN_VALUE && (sweptAt == Long.MIN_VALUE || newest - sweptAt >= SWEEP_EVERY_MS)) {
            sweptAt = newest;
            List<String> expired = new ArrayList<>();
            try (KeyValueIterator<String, Chunk> it = chunks.store().all()) {
                while (it.hasNext()) {
                    KeyValue<String, Chunk> e = it.next();
                    if (e.value.newest < newest - retentionMs) {
                        expired.add(e.key);
                    }
                }
            }
            expired.forEach(chunks::remove);
        }
    }

    /** Forgets the changes since the last flush (the transaction was aborted). */
    public void discard() {
        chunks.discard();
        lastRun = null;
        last = null;
    }

    /** 4,096 counters of one run: which were seen, and the newest event time among them. Mutable. */
    public static final class Chunk {
        final long[] bits;
        long newest;

        Chunk(long[] bits, long newest) {
            this.bits = bits;
            this.newest = newest;
        }

        /** The newest event time among the chunk's counters, epoch ms. */
        public long newest() {
            return newest;
        }

        public byte[] toBytes() {
            ByteBuffer b = ByteBuffer.allocate(8 + 8 * bits.length).putLong(newest);
            for (long w : bits) {
                b.putLong(w);
            }
            return b.array();
        }

        public static Chunk fromBytes(String topic, byte[] b) {
            if (b.length != 8 + 8 * WORDS) {
                throw new SerializationException(topic + ": seen-runs entry of " + b.length + " bytes, expected "
                        + (8 + 8 * WORDS));
            }
            ByteBuffer buf = ByteBuffer.wrap(b);
            long newest = buf.getLong();
            long[] bits = new long[WORDS];
            for (int i = 0; i < WORDS; i++) {
                bits[i] = buf.getLong();
            }
            return new Chunk(bits, newest);
        }
    }
}
