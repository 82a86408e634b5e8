package io.siteflow.agent.export;

import java.nio.ByteBuffer;

/**
 * The bytes between the receiving thread and the decoding thread: one array allocated at start, used as a ring of
 * datagrams one after the other (each behind a 16-byte header: its length, its socket, its exporter's number and
 * when it was received).
 * {@link #offer} copies a datagram in, or refuses it when the free space cannot take it; {@link #poll} copies the
 * oldest one out into the decoder's buffer. Nothing is allocated per datagram.
 *
 * <p>One producer thread ({@code offer}) and one consumer thread ({@code poll}), no more: the two positions are
 * volatile, each written by one side only. {@link #entryBytes} says how much of the pool a datagram takes, so a test
 * can know exactly how many fit.
 */
final class DatagramPool {
    /** Bytes before each datagram: length (int), socket kind (short), exporter number (short), receive time (long). */
    static final int HEADER = 16;
    /** A length that says: the entry that follows starts at the beginning of the array. */
    private static final int WRAP = -1;
    /** The smallest pool: one datagram of the largest size (65,535 bytes) and its header. */
    static final int MIN_CAPACITY = 65_536 + HEADER;

    private final byte[] ring;
    private final int capacity;
    private volatile long writePos;
    private volatile long readPos;
    private long polledMs;

    /**
     * @param capacity bytes, at least {@link #MIN_CAPACITY} (one datagram of the largest size fits); rounded down to a
     *                 multiple of 8
     */
    DatagramPool(int capacity) {
        if (capacity < MIN_CAPACITY) {
            throw new IllegalArgumentException("receive pool of " + capacity + " bytes: must be at least "
                    + MIN_CAPACITY);
        }
        this.capacity = capacity & ~7;
        this.ring = new byte[this.capacity];
    }

    /** The pool's size in bytes. */
    int capacity() {
        return capacity;
    }

    /** A pool size as people read it: {@code 128 MiB}, or {@code 148000 bytes} when not whole mebibytes. */
    static String size(int bytes) {
        return bytes % (1 << 20) == 0 ? (bytes >> 20) + " MiB" : bytes + " bytes";
    }

    /** Bytes a datagram of {@code length} bytes takes in the pool: the header and its length rounded up to 8. */
    static int entryBytes(int length) {
        return HEADER + (length + 7 & ~7);
    }

    /**
     * Copies the datagram between {@code from}'s position and limit into the pool (the producer thread only).
     *
     * @param kind     0 NetFlow/IPFIX socket, 1 sFlow socket
     * @param exporter the exporter's number, 0 to 65535
     * @param nowMs    when it was received (epoch ms)
     * @return false when the free space cannot take it (the datagram is left out; the caller counts it)
     */
    boolean offer(ByteBuffer from, int kind, int exporter, long nowMs) {
        int length = from.remaining();
        int need = entryBytes(length);
        long w = writePos;
        int at = (int) (w % capacity);
        int toEnd = capacity - at;
        int skip = toEnd < need ? toEnd : 0; // an entry never runs past the end of the array
        if (w + skip + need - readPos > capacity) {
            return false;
        }
        if (skip > 0) {
            putInt(at, WRAP);
            at = 0;
        }
        putInt(at, length);
        ring[at + 4] = (byte) kind;
        ring[at + 5] = 0;
        ring[at + 6] = (byte) (exporter >>> 8);
        ring[at + 7] = (byte) exporter;
        putInt(at + 8, (int) (nowMs >>> 32));
        putInt(at + 12, (int) nowMs);
        from.get(ring, at + HEADER, length);
        writePos = w + skip + need; // publishes the bytes to the consumer
        return true;
    }

    /**
     * Copies the oldest datagram into {@code into} (cleared; position 0, limit its length) and frees its space (the
     * consumer thread only). {@code into} must hold 65,536 bytes.
     *
     * @return -1 when the pool is empty, else the socket kind in bits 16 and up and the exporter number below
     */
    int poll(ByteBuffer into) {
        long r = readPos;
        if (r == writePos) {
            return -1;
        }
        int at = (int) (r % capacity);
        int length = getInt(at);
        if (length == WRAP) { // entries are 8-aligned in a ring of a multiple of 8: the marker always fits
            r += capacity - at;
            at = 0;
            length = getInt(0);
        }
        int kind = ring[at + 4];
        int exporter = (ring[at + 6] & 0xFF) << 8 | ring[at + 7] & 0xFF;
        polledMs = (long) getInt(at + 8) << 32 | getInt(at + 12) & 0xFFFF_FFFFL;
        into.clear();
        into.put(ring, at + HEADER, length).flip();
        readPos = r + entryBytes(length);
        return kind << 16 | exporter;
    }

    /** When the datagram {@link #poll} returned last was received (epoch ms; the consumer thread only). */
    long polledMs() {
        return polledMs;
    }

    /** Bytes held now; safe from any thread (may lag). */
    long used() {
        return writePos - readPos;
    }

    private void putInt(int at, int v) {
        ring[at] = (byte) (v >>> 24);
        ring[at + 1] = (byte) (v >>> 16);
        ring[at + 2] = (byte) (v >>> 8);
        ring[at + 3] = (byte) v;
    }

    private int getInt(int at) {
        return (ring[at] & 0xFF) << 24 | (ring[at + 1] & 0xFF) << 16 | (ring[at + 2] & 0xFF) << 8 | ring[at + 3] & 0xFF;
    }
}
