package io.siteflow.agent.capture.file;

import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.capture.CaptureFileException.Kind;
import io.siteflow.agent.capture.PacketHandler;

import java.nio.file.Path;

/**
 * Classic pcap: a 24-byte file header, then 16-byte record headers each followed by the captured bytes.
 * Microsecond (a1b2c3d4) and nanosecond (a1b23c4d) magic in both byte orders, version 2.x.
 */
final class PcapReader extends FormatReader {
    static final int MAGIC_MICROS = 0xA1B2C3D4;
    static final int MAGIC_NANOS = 0xA1B23C4D;
    static final int MAGIC_MODIFIED = 0xA1B2CD34;
    static final int FILE_HEADER = 24;
    private static final int RECORD_HEADER = 16;
    /** Bits 16-25 of the link-type field are reserved; 26 (FCS length present) and 28-31 (FCS length) are not. */
    private static final int RESERVED_LINK_BITS = 0x03FF_0000;

    private final boolean bigEndian;
    private final long fractionToNanos;
    private final int linkType;

    private PcapReader(Path file, InputWindow in, boolean bigEndian, long fractionToNanos, int linkType) {
        super(file, in);
        this.bigEndian = bigEndian;
        this.fractionToNanos = fractionToNanos;
        this.linkType = linkType;
    }

    /**
     * Checks the file header at {@code in.pos} (whose first 4 bytes are a pcap magic) and consumes it.
     *
     * @throws CaptureFileException NOT_A_CAPTURE for a short header, UNSUPPORTED for a version other than
     *                              2.x or reserved link-type bits
     */
    static PcapReader open(Path file, InputWindow in, int magicBigEndian, boolean bigEndian) throws CaptureFileException {
        if (in.available() < FILE_HEADER) {
            throw new CaptureFileException(file, Kind.NOT_A_CAPTURE, 0,
                    in.available() + " bytes, too short for a pcap file header (" + FILE_HEADER + " bytes)");
        }
        byte[] b = in.buf;
        int p = in.pos;
        int major = Bytes.u16(b, p + 4, bigEndian);
        int minor = Bytes.u16(b, p + 6, bigEndian);
        if (major != 2) {
            throw new CaptureFileException(file, Kind.UNSUPPORTED, 4,
                    "pcap version " + major + "." + minor + " is not supported (only 2.x)");
        }
        int field = Bytes.i32(b, p + 20, bigEndian);
        if ((field & RESERVED_LINK_BITS) != 0) {
            throw new CaptureFileException(file, Kind.UNSUPPORTED, 20,
                    String.format("link-type field 0x%08x has reserved bits set", field));
        }
        in.pos = p + FILE_HEADER;
        long fractionToNanos = magicBigEndian == MAGIC_NANOS ? 1 : 1000;
        return new PcapReader(file, in, bigEndian, fractionToNanos, field & 0xFFFF);
    }

    @Override
    void readAll(PacketHandler handler) throws CaptureFileException {
        final InputWindow in = this.in;
        final boolean be = bigEndian;
        long count = delivered();
        while (!stopRequested()) {
            if (in.limit - in.pos < RECORD_HEADER && !request(RECORD_HEADER, "packet record header", true)) {
                return;
            }
            int p = in.pos;
            byte[] b = in.buf;
            int capLen = Bytes.i32(b, p + 8, be);
            if (capLen < 0 || capLen > MAX_CAPTURED_LENGTH) {
                throw corrupt(in.offsetOf(p), "packet record of " + Integer.toUnsignedString(capLen)
                        + " captured bytes is bigger than the maximum of " + MAX_CAPTURED_LENGTH);
            }
            int recordLength = RECORD_HEADER + capLen;
            if (in.limit - p < recordLength) {
                request(recordLength, "packet record", false);
                p = in.pos;
                b = in.buf;
            }
            long nanos = Bytes.u32(b, p, be) * 1_000_000_000L + Bytes.u32(b, p + 4, be) * fractionToNanos;
            int wireLen = Bytes.i32(b, p + 12, be);
            in.pos = p + recordLength;
            handler.onPacket(nanos, linkType, b, p + RECORD_HEADER, capLen, wireLen < 0 ? Integer.MAX_VALUE : wireLen);
            countDelivered(++count);
        }
    }
}
