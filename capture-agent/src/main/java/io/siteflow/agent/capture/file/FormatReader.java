package io.siteflow.agent.capture.file;

import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.capture.CaptureFileException.Kind;
import io.siteflow.agent.capture.PacketHandler;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.ZipException;

/**
 * The record loop of one capture format over an {@link InputWindow}, with the stop flag, the packet
 * counter and the typed errors every format shares. {@link #stop()} and {@link #delivered()} are safe
 * from any thread; {@link #readAll} runs on one.
 */
abstract class FormatReader {
    /** Largest captured length accepted for one packet, as tshark/wiretap (WTAP_MAX_PACKET_SIZE_STANDARD). */
    static final int MAX_CAPTURED_LENGTH = 262_144;

    final Path file;
    final InputWindow in;
    private final AtomicLong delivered = new AtomicLong();
    private volatile boolean stopRequested;

    FormatReader(Path file, InputWindow in) {
        this.file = file;
        this.in = in;
    }

    /**
     * Delivers every packet from the current position to the end of the stream, or until {@link #stop()}.
     *
     * @throws CaptureFileException CORRUPT, TRUNCATED or IO, after delivering every packet before the problem
     */
    abstract void readAll(PacketHandler handler) throws CaptureFileException;

    final void stop() {
        stopRequested = true;
    }

    final boolean stopRequested() {
        return stopRequested;
    }

    final long delivered() {
        return delivered.get();
    }

    /** Publishes the number of packets delivered so far (a release store: cheap, seen by other threads soon). */
    final void countDelivered(long count) {
        delivered.lazySet(count);
    }

    /**
     * Makes {@code n} bytes of the record starting at {@code in.pos} available.
     *
     * @param what the record's name for the message, e.g. "packet record"
     * @return false when the stream ended exactly at {@code in.pos} (a clean end) and {@code endOk} is set
     * @throws CaptureFileException TRUNCATED when the stream ends inside the record, IO/CORRUPT on read errors
     */
    final boolean request(int n, String what, boolean endOk) throws CaptureFileException {
        return in.limit - in.pos >= n || refill(n, what, endOk);
    }

    private boolean refill(int n, String what, boolean endOk) throws CaptureFileException {
        long start = in.offsetOf(in.pos);
        boolean complete;
        try {
            complete = in.request(n);
        } catch (IOException e) {
            throw readFailure(start, e);
        }
        if (complete) {
            return true;
        }
        if (endOk && in.available() == 0) {
            return false;
        }
        throw truncated(start, what, n, in.available());
    }

    final CaptureFileException truncated(long offset, String what, long needed, long left) {
        return new CaptureFileException(file, Kind.TRUNCATED, offset,
                what + " needs " + needed + " bytes, " + left + " left");
    }

    final CaptureFileException corrupt(long offset, String detail) {
        return new CaptureFileException(file, Kind.CORRUPT, offset, detail);
    }

    final CaptureFileException unsupported(long offset, String detail) {
        return new CaptureFileException(file, Kind.UNSUPPORTED, offset, detail);
    }

    /** Maps a read error: a cut gzip stream is TRUNCATED, bad gzip data CORRUPT, anything else IO. */
    final CaptureFileException readFailure(long offset, IOException e) {
        if (e instanceof EOFException) {
            return new CaptureFileException(file, Kind.TRUNCATED, offset, "gzip stream ends early (" + e.getMessage() + ")", e);
        }
        if (e instanceof ZipException) {
            return new CaptureFileException(file, Kind.CORRUPT, offset, "gzip data is damaged (" + e.getMessage() + ")", e);
        }
        return new CaptureFileException(file, Kind.IO, offset, "read error at byte " + offset + ": " + e.getMessage(), e);
    }
}
