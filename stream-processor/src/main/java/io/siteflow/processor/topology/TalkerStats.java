package io.siteflow.processor.topology;

import java.nio.ByteBuffer;

/**
 * Traffic of one talker row (a host pair, category and service port) in both directions: totals and bytes per
 * second of event time for the last {@value #SECONDS} seconds. A record's bytes are spread evenly over the
 * seconds of {@code [start, end]} (integer division, the remainder on the last second); seconds older than the
 * newest second minus {@value #SECONDS} go into the totals only. The peak is the largest one-second value seen.
 * Mutable, not thread-safe; {@link #toBytes()} / {@link #fromBytes} give its fixed binary store form.
 */
public final class TalkerStats {
    public static final int SECONDS = 40;
    private static final int OLD_SIZE = 8 * 5 + 2 * 8 * SECONDS;
    private static final int SIZE = OLD_SIZE + 8;
    private long updatedMs;
    private long newestSecond = Long.MIN_VALUE;
    private long outTotal;
    private long inTotal;
    private long outPeak;
    private long inPeak;
    private final long[] out = new long[SECONDS];
    private final long[] in = new long[SECONDS];

    /**
     * Adds {@code outBytes} (local to remote) and {@code inBytes} seen between {@code startMs} and {@code endMs}
     * (event time), received at {@code wallMs} (wall clock).
     */
    public void add(long startMs, long endMs, long outBytes, long inBytes, long wallMs) {
        updatedMs = Math.max(updatedMs, wallMs);
        outTotal += outBytes;
        inTotal += inBytes;
        long s0 = Math.floorDiv(startMs, 1000);
        long s1 = Math.max(s0, Math.floorDiv(endMs, 1000));
        long n = s1 - s0 + 1;
        advance(s1);
        for (long s = Math.max(s0, newestSecond - SECONDS + 1); s <= s1; s++) {
            boolean last = s == s1;
            int i = (int) Math.floorMod(s, (long) SECONDS);
            out[i] += outBytes / n + (last ? outBytes % n : 0);
            in[i] += inBytes / n + (last ? inBytes % n : 0);
            outPeak = Math.max(outPeak, out[i]);
            inPeak = Math.max(inPeak, in[i]);
        }
    }

    private void advance(long second) {
        if (second <= newestSecond) {
            return;
        }
        long from = newestSecond == Long.MIN_VALUE ? second - SECONDS + 1 : Math.max(newestSecond + 1, second - SECONDS + 1);
        for (long s = from; s <= second; s++) {
            int i = (int) Math.floorMod(s, (long) SECONDS);
            out[i] = 0;
            in[i] = 0;
        }
        newestSecond = second;
    }

    /** The newest second with traffic (epoch seconds), {@link Long#MIN_VALUE} when empty. */
    public long newestSecond() {
        return newestSecond;
    }

    /** Bytes per second local to remote over the {@code seconds} seconds ending with {@code nowSecond}. */
    public double outRate(long nowSecond, int seconds) {
        return rate(out, nowSecond, seconds);
    }

    /** Bytes per second remote to local over the {@code seconds} seconds ending with {@code nowSecond}. */
    public double inRate(long nowSecond, int seconds) {
        return rate(in, nowSecond, seconds);
    }

    private double rate(long[] buckets, long now, int seconds) {
        long sum = 0;
        for (long s = now - seconds + 1; s <= now; s++) {
            if (s <= newestSecond && s > newestSecond - SECONDS) {
                sum += buckets[(int) Math.floorMod(s, (long) SECONDS)];
            }
        }
        return (double) sum / seconds;
    }

    /** Wall-clock time (epoch ms) of the last {@link #add}, 0 when never (or stored by an older version). */
    public long updatedMs() {
        return updatedMs;
    }

    public long outTotal() {
        return outTotal;
    }

    public long inTotal() {
        return inTotal;
    }

    public long outPeak() {
        return outPeak;
    }

    public long inPeak() {
        return inPeak;
    }

    public byte[] toBytes() {
        ByteBuffer b = ByteBuffer.allocate(SIZE);
        b.putLong(newestSecond).putLong(outTotal).putLong(inTotal).putLong(outPeak).putLong(inPeak);
        for (int i = 0; i < SECONDS; i++) {
            b.putLong(out[i]).putLong(in[i]);
        }
        b.putLong(updatedMs);
        return b.array();
    }

    /** @throws IllegalArgumentException when the bytes are not {@link #toBytes()} output */
    public static TalkerStats fromBytes(byte[] bytes) {
        if (bytes.length != SIZE && bytes.length != OLD_SIZE) {
            throw new IllegalArgumentException("talker stats: expected " + SIZE + " (or " + OLD_SIZE + ") bytes, got "
                    + bytes.length);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        TalkerStats t = new TalkerStats();
        t.newestSecond = b.getLong();
        t.outTotal = b.getLong();
        t.inTotal = b.getLong();
        t.outPeak = b.getLong();
        t.inPeak = b.getLong();
        for (int i = 0; i < SECONDS; i++) {
            t.out[i] = b.getLong();
            t.in[i] = b.getLong();
        }
        t.updatedMs = b.hasRemaining() ? b.getLong() : 0;
        return t;
    }
}
