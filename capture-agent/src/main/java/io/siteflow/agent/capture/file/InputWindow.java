package io.siteflow.agent.capture.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * A sliding window over a byte stream, backed by one large reusable heap array. Readers look at
 * {@code buf[pos..limit)} directly and advance {@code pos}; {@link #request} moves the unread bytes to
 * the front and refills the rest from the channel when a record straddles the end of the window.
 * The array only grows when a single request is larger than it. Not thread-safe.
 */
final class InputWindow {
    private final ReadableByteChannel channel;
    /** The bytes; valid in {@code [pos, limit)}. Replaced when the window grows. */
    byte[] buf;
    /** Next unread byte. */
    int pos;
    /** End of the valid bytes. */
    int limit;
    private ByteBuffer view;
    /** Stream offset of {@code buf[0]}. */
    private long base;
    private boolean ended;
    /** A read error seen after some bytes arrived; thrown when more bytes are needed. */
    private IOException pending;

    InputWindow(ReadableByteChannel channel, int capacity) {
        this.channel = channel;
        this.buf = new byte[capacity];
        this.view = ByteBuffer.wrap(buf);
    }

    /** Stream offset of {@code buf[p]}. */
    long offsetOf(int p) {
        return base + p;
    }

    /** Bytes available at {@code pos} without reading. */
    int available() {
        return limit - pos;
    }

    /**
     * Makes at least {@code n} bytes available at {@code pos} (which may move to 0; {@code buf} may be
     * replaced). Returns false when the stream ends first; {@link #available()} then tells how many
     * bytes were left. A read error keeps the bytes that arrived before it and is thrown by the first
     * request that needs more (so every complete record before the error can still be read).
     */
    boolean request(int n) throws IOException {
        if (limit - pos >= n) {
            return true;
        }
        if (pending != null) {
            throw pending;
        }
        if (ended) {
            return false;
        }
        compact(n);
        while (limit < n) {
            view.limit(buf.length).position(limit);
            int read;
            try {
                read = channel.read(view);
            } catch (IOException e) {
                limit = view.position();
                pending = e;
                if (limit - pos >= n) {
                    return true;
                }
                throw e;
            }
            if (read < 0) {
                ended = true;
                return false;
            }
            limit += read;
        }
        return true;
    }

    /** Skips {@code n} bytes; returns how many were skipped (fewer only at the end of the stream). */
    long skip(long n) throws IOException {
        long skipped = 0;
        while (skipped < n) {
            if (pos == limit && !request(1)) {
                break;
            }
            int step = (int) Math.min(n - skipped, limit - pos);
            pos += step;
            skipped += step;
        }
        return skipped;
    }

    private void compact(int n) {
        int unread = limit - pos;
        byte[] target = buf;
        if (n > buf.length) {
            target = new byte[Math.max(n, (int) Math.min(Integer.MAX_VALUE - 8, 2L * buf.length))];
            view = ByteBuffer.wrap(target);
        }
        System.arraycopy(buf, pos, target, 0, unread);
        base += pos;
        buf = target;
        pos = 0;
        limit = unread;
    }
}
