package io.siteflow.synth;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a capture file of Ethernet frames ({@code LINKTYPE_ETHERNET}), little-endian: classic pcap (version 2.4)
 * or pcapng (one section, one interface, enhanced packet blocks), with microsecond or nanosecond timestamps.
 * The wire length of each record is the frame length; the captured bytes are cut to the snap length. Output is
 * buffered by {@link #create}: call {@link #close()} (or {@link #flush()}) to see every record.
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
    private static final int EPB_OVERHEAD = 32;

    /** The file format. */
    public enum Format {
        /** Classic pcap, 24-byte file header and 16-byte record headers. */
        PCAP,
        /** pcapng: a section header block, one interface description block, enhanced packet blocks. */
        PCAPNG
    }

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
    private final Format format;
    private final Resolution resolution;
    private final int snaplen;
    private final byte[] header = new byte[28];
    private final byte[] padding = new byte[4];
    private long packets;
    private long bytesWritten;

    /** A classic pcap writer: {@code new PcapWriter(out, Format.PCAP, resolution, snaplen)}. */
    public PcapWriter(OutputStream out, Resolution resolution, int snaplen) throws IOException {
        this(out, Format.PCAP, resolution, snaplen);
    }

    /**
     * Writes the file header to {@code out} (which this writer then owns and closes).
     *
     * @param snaplen the largest number of bytes kept per frame, 1 to {@link #MAX_SNAPLEN}
     * @throws IllegalArgumentException when {@code snaplen} is out of range
     */
    public PcapWriter(OutputStream out, Format format, Resolution resolution, int snaplen) throws IOException {
        if (snaplen < 1 || snaplen > MAX_SNAPLEN) {
            throw new IllegalArgumentException("snaplen " + snaplen + " is not in 1-" + MAX_SNAPLEN);
        }
        this.out = out;
        this.format = format;
        this.resolution = resolution;
        this.snaplen = snaplen;
        byte[] h = format == Format.PCAP ? pcapHeader(resolution, snaplen) : pcapngHeader(resolution, snaplen);
        out.write(h);
        bytesWritten = h.length;
    }

    private static byte[] pcapHeader(Resolution resolution, int snaplen) {
        byte[] h = new byte[FILE_HEADER];
        putInt(h, 0, resolution.magic);
        putShort(h, 4, 2);
        putShort(h, 6, 4);
        // thiszone and sigfigs stay 0
        putInt(h, 16, snaplen);
        putInt(h, 20, LINKTYPE_ETHERNET);
        return h;
    }

    /** Section header block (version 1.0, section length unknown), then the interface; nanoseconds need if_tsresol. */
    private static byte[] pcapngHeader(Resolution resolution, int snaplen) {
        int idb = resolution == Resolution.NANOS ? 32 : 20;
        byte[] h = new byte[28 + idb];
        putInt(h, 0, 0x0A0D0D0A);
        putInt(h, 4, 28);
        putInt(h, 8, 0x1A2B3C4D);
        putShort(h, 12, 1);
        putInt(h, 16, -1);
        putInt(h, 20, -1);
        putInt(h, 24, 28);
        putInt(h, 28, 1);
        putInt(h, 32, idb);
        putShort(h, 36, LINKTYPE_ETHERNET);
        putInt(h, 40, snaplen);
        if (resolution == Resolution.NANOS) {
            putShort(h, 44, 9); // if_tsresol: 10^-9, then opt_endofopt
            putShort(h, 46, 1);
            h[48] = 9;
        }
        putInt(h, 24 + idb, idb);
        return h;
    }

    /** Creates (or replaces) a classic pcap {@code file} and writes the file header, with a 1 MiB buffer. */
    public static PcapWriter create(Path file, Resolution resolution, int snaplen) throws IOException {
        return create(file, Format.PCAP, resolution, snaplen);
    }

    /** Creates (or replaces) {@code file} in {@code format} and writes the file header, with a 1 MiB buffer. */
    public static PcapWriter create(Path file, Format format, Resolution resolution, int snaplen) throws IOException {
        OutputStream os = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20);
        try {
            return new PcapWriter(os, format, resolution, snaplen);
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
        int captured = Math.min(length, snaplen);
        if (format == Format.PCAP) {
            long fraction = tsNanos % 1_000_000_000L;
            putInt(header, 0, (int) (tsNanos / 1_000_000_000L));
            putInt(header, 4, (int) (resolution == Resolution.NANOS ? fraction : fraction / 1000));
            putInt(header, 8, captured);
            putInt(header, 12, length);
            out.write(header, 0, RECORD_HEADER);
            out.write(frame, offset, captured);
            bytesWritten += RECORD_HEADER + captured;
        } else {
            writeEnhancedPacketBlock(tsNanos, frame, offset, length, captured);
        }
        packets++;
    }

    private void writeEnhancedPacketBlock(long tsNanos, byte[] frame, int offset, int length, int captured)
            throws IOException {
        long units = resolution == Resolution.NANOS ? tsNanos : tsNanos / 1000;
        int padded = (captured + 3) & ~3;
        int total = EPB_OVERHEAD + padded;
        putInt(header, 0, 6);
        putInt(header, 4, total);
        putInt(header, 8, 0);
        putInt(header, 12, (int) (units >>> 32));
        putInt(header, 16, (int) units);
        putInt(header, 20, captured);
        putInt(header, 24, length);
        out.write(header, 0, 28);
        out.write(frame, offset, captured);
        out.write(padding, 0, padded - captured);
        putInt(header, 0, total);
        out.write(header, 0, 4);
        bytesWritten += total;
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
