package io.siteflow.agent.publish.kafka;

import io.siteflow.model.Digits;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The on-disk format of one spool segment file ({@code capture-agent/docs/publish.md}): an 8-byte
 * header ({@code SFSP} and format version 1 as a big-endian int), then records of
 * {@code [int length][int CRC-32C of the payload][payload]}, big-endian. Stateless helpers;
 * callers own the channels.
 */
final class SpoolSegment {
    static final int MAGIC = 0x53465350; // "SFSP"
    static final int VERSION = 1;
    static final int HEADER_BYTES = 8;
    static final int RECORD_HEADER_BYTES = 8;
    /** Larger lengths can only come from a damaged file. */
    static final int MAX_RECORD_BYTES = 16 * 1024 * 1024;
    static final String SUFFIX = ".spool";

    private SpoolSegment() {
    }

    /** The file of segment number {@code seq} in {@code dir}: 20 digits and {@code .spool}. */
    static Path path(Path dir, long seq) {
        return dir.resolve(String.format("%020d%s", seq, SUFFIX));
    }

    /** The segment number of a file name made by {@link #path}, or -1 for any other name. */
    static long seqOf(Path file) {
        String name = file.getFileName().toString();
        if (!name.endsWith(SUFFIX) || name.length() != 20 + SUFFIX.length()) {
            return -1;
        }
        String digits = name.substring(0, 20);
        return Digits.ascii(digits) ? Long.parseLong(digits) : -1;
    }

    static ByteBuffer header() {
        return ByteBuffer.allocate(HEADER_BYTES).putInt(MAGIC).putInt(VERSION).flip();
    }

    /** Null when the header is good, else what is wrong with it. */
    static String checkHeader(FileChannel ch) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES);
        readFully(ch, b, 0);
        if (b.hasRemaining()) {
            return "file of " + ch.size() + " bytes is shorter than the spool header";
        }
        b.flip();
        int magic = b.getInt();
        int version = b.getInt();
        if (magic != MAGIC) {
            return "not a spool segment (bad magic)";
        }
        return version == VERSION ? null : "spool format version " + version + " is not supported";
    }

    /** A record frame: length, CRC and payload in one buffer ready to write. */
    static ByteBuffer frame(byte[] payload) {
        CRC32C crc = new CRC32C();
        crc.update(payload);
        return ByteBuffer.allocate(RECORD_HEADER_BYTES + payload.length)
                .putInt(payload.length).putInt((int) crc.getValue()).put(payload).flip();
    }

    /**
     * One read attempt at {@code offset}: a payload ({@code problem} null), a record to skip
     * ({@code data} null, {@code next} after it), or a damaged rest of file ({@code next} -1).
     */
    record Entry(byte[] data, long next, String problem) {
    }

    /** Reads the record at {@code offset} of a file whose valid data ends at {@code end}; null at the end. */
    static Entry read(FileChannel ch, long offset, long end, boolean withPayload) throws IOException {
        long left = end - offset;
        if (left <= 0) {
            return null;
        }
        if (left < RECORD_HEADER_BYTES) {
            return new Entry(null, -1, "truncated record header (" + left + " bytes)");
        }
        ByteBuffer h = ByteBuffer.allocate(RECORD_HEADER_BYTES);
        readFully(ch, h, offset);
        int length = h.getInt(0);
        int crc = h.getInt(4);
        if (length < 0 || length > MAX_RECORD_BYTES) {
            return new Entry(null, -1, "bad record length " + length);
        }
        if (length > left - RECORD_HEADER_BYTES) {
            return new Entry(null, -1, "record of " + length + " bytes runs past the end of the file ("
                    + (left - RECORD_HEADER_BYTES) + " bytes left)");
        }
        long next = offset + RECORD_HEADER_BYTES + length;
        if (!withPayload) {
            return new Entry(new byte[0], next, null);
        }
        ByteBuffer payload = ByteBuffer.allocate(length);
        readFully(ch, payload, offset + RECORD_HEADER_BYTES);
        CRC32C c = new CRC32C();
        c.update(payload.array());
        if ((int) c.getValue() != crc) {
            return new Entry(null, next, "CRC mismatch, record of " + length + " bytes skipped");
        }
        return new Entry(payload.array(), next, null);
    }

    private static void readFully(FileChannel ch, ByteBuffer b, long position) throws IOException {
        long p = position;
        while (b.hasRemaining()) {
            int n = ch.read(b, p);
            if (n < 0) {
                return;
            }
            p += n;
        }
    }
}
