package io.siteflow.agent.synth;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a classic pcap file (version 2.4, little-endian, {@code LINKTYPE_ETHERNET}) with microsecond or
 * nanosecond timestamps. The wire length of each record is the frame length; the captured bytes are cut to
 * the snap length. Output is buffered: call {@link #close()} (or {@link #flush()}) to see every record.
 *
 * <p>Not thread-safe. {@link IOException}s of the underlying stream propagate unchanged.
 */
public final class PcapWriter implements Closeable {
    /** {@code LINKTYPE_ETHERNET}. */
    public static final int LINKTYPE_ETHERNET = 1;
    /** The largest snap length tcpdump writes by default. */
    public static final int MAX_SNAPLEN = 262_144;
    private static final int FILE_HEADER = 24;
    private static final int RECORD_HEADER = 16;

    /** Timestamp resolution, which decides the file's magic number. */
    public enum Resolution {
        /** Magic {@code a1b2c3d4}. */
        MICROS(0xA1B2C3D4),
        /** Magic {@code a1b23c4d}. */
        NANOS(0xA1B23C4D);

        final int magic;

        Resolution(int magic) {
            this.magic = magic;
        }
    }

    private final OutputStream out;
    private final Resolution resolution;
    private final int snaplen;
    private final byte[] header = new byte[RECORD_HEADER];
    private long packets;
    private long bytesWritten;

    /**
     * Writes the file header to {@code out} (which this writer then owns and closes).
     *
     * @param snaplen the largest number of bytes kept per frame, 1 to {@link #MAX_SNAPLEN}
     * @throws IllegalArgumentException when {@code snaplen} is out of range
     */
    public PcapWriter(OutputStream out, Resolution resolution, int snaplen) throws IOException {
        if (snaplen < 1 || snaplen > MAX_SNAPLEN) {
            throw new IllegalArgumentException("snaplen " + snaplen + " is not in 1-" + MAX_SNAPLEN);
        }
        this.out = out;
        this.resolution = resolution;
        this.snaplen = snaplen;
        byte[] h = new byte[FILE_HEADER];
        putInt(h, 0, resolution.magic);
        putShort(h, 4, 2);
        putShort(h, 6, 4);
        // thiszone and sigfigs stay 0
        putInt(h, 16, snaplen);
        putInt(h, 20, LINKTYPE_ETHERNET);
        out.write(h);
        bytesWritten = FILE_HEADER;
    }

    /** Creates (or replaces) {@code file} and writes the file header, with a 1 MiB buffer. */
    public static PcapWriter create(Path file, Resolution resolution, int snaplen) throws IOException {
        OutputStream os = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20);
        try {
            return new PcapWriter(os, resolution, snaplen);
        } catch (IOException | RuntimeException e) {
            os.close();
            throw e;
        }
    }

    /** Writes the whole array as one frame. */
    public void write(long tsNanos, byte[] frame) throws IOException {
        write(tsNanos, frame, 0, frame.length);
    }

    /**
     * Writes one frame: wire length {@code length}, captured bytes {@code min(length, snaplen)}.
     *
     * @param tsNanos epoch nanoseconds, not negative (truncated to microseconds in a {@link Resolution#MICROS} file)
     * @throws IllegalArgumentException when {@code tsNanos} is negative
     */
    public void write(long tsNanos, byte[] frame, int offset, int length) throws IOException {
        if (tsNanos < 0) {
            throw new IllegalArgumentException("timestamp " + tsNanos + " is before 1970");
        }
        long seconds = tsNanos / 1_000_000_000L;
        long fraction = tsNanos % 1_000_000_000L;
        int captured = Math.min(length, snaplen);
        putInt(header, 0, (int) seconds);
        putInt(header, 4, (int) (resolution == Resolution.NANOS ? fraction : fraction / 1000));
        putInt(header, 8, captured);
        putInt(header, 12, length);
        out.write(header);
        out.write(frame, offset, captured);
        packets++;
        bytesWritten += RECORD_HEADER + captured;
    }

    /** Records written so far. */
    public long packets() {
        return packets;
    }

    /** File bytes written so far, headers included. */
    public long bytesWritten() {
        return bytesWritten;
    }

    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >>> 8);
        b[at + 2] = (byte) (v >>> 16);
        b[at + 3] = (byte) (v >>> 24);
    }

    private static void putShort(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >>> 8);
    }
}
