package io.siteflow.agent.capture.file;

import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.capture.CaptureFileException.Kind;
import io.siteflow.agent.capture.PacketHandler;
import io.siteflow.agent.decode.Bytes;
import java.nio.file.Path;

/**
 * Classic pcap: a 24-byte file header, then 16-byte record headers each followed by the captured bytes.
 * Microsecond (a1b2c3d4) and nanosecond (a1b23c4d) magic in both byte orders, version 2.0 and later
 * (lengths swapped before 2.3, as libpcap wrote them), and the record-header variants of
 * {@link PcapVariant}.
 */
final class PcapReader extends FormatReader {
    static final int MAGIC_MICROS = 0xA1B2C3D4;
    static final int MAGIC_NANOS = 0xA1B23C4D;
    static final int MAGIC_MODIFIED = 0xA1B2CD34;
    static final int FILE_HEADER = 24;
    /** Bits 16-25 of the link-type field are reserved; 26 (FCS length present) and 28-31 (FCS length) are not. */
    private static final int RESERVED_LINK_BITS = 0x03FF_0000;
    private static final int LINKTYPE_DBUS = 231;
    private static final int LINKTYPE_USBPCAP = 249;

    private final boolean bigEndian;
    private final long fractionToNanos;
    private final int linkType;
    private final int maxCaptured;
    private final int recordHeader;
    private final LengthOrder lengthOrder;

    /** Where the captured and wire lengths sit in a record header: versions before 2.3 wrote them swapped. */
    private enum LengthOrder { NORMAL, SWAPPED, SWAPPED_IF_CAPTURED_IS_LARGER }

    private PcapReader(Path file, InputWindow in, boolean bigEndian, long fractionToNanos, int linkType,
                       PcapVariant variant, LengthOrder lengthOrder) {
        super(file, in);
        this.bigEndian = bigEndian;
        this.fractionToNanos = fractionToNanos;
        this.linkType = linkType;
        this.maxCaptured = maxCapturedLength(linkType);
        this.recordHeader = variant.headerLength;
        this.lengthOrder = lengthOrder;
    }

    /**
     * Checks the file header at {@code in.pos} (whose first 4 bytes are a pcap magic) and consumes it.
     *
     * @throws CaptureFileException NOT_A_CAPTURE for a short header, UNSUPPORTED for a major version
     *                              below 2 or reserved link-type bits
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
        if (major < 2) {
            throw new CaptureFileException(file, Kind.UNSUPPORTED, 4,
                    "pcap version " + major + "." + minor + " is not supported (only 2.x and later)");
        }
        int field = Bytes.i32(b, p + 20, bigEndian);
        if ((field & RESERVED_LINK_BITS) != 0) {
            throw new CaptureFileException(file, Kind.UNSUPPORTED, 20,
                    String.format("link-type field 0x%08x has reserved bits set", field));
        }
        long snapLength = Bytes.u32(b, p + 16, bigEndian);
        in.pos = p + FILE_HEADER;
        LengthOrder order = major == 543 || (major == 2 && minor < 3) ? LengthOrder.SWAPPED
                : major == 2 && minor == 3 ? LengthOrder.SWAPPED_IF_CAPTURED_IS_LARGER : LengthOrder.NORMAL;
        boolean nanos = magicBigEndian == MAGIC_NANOS;
        int linkType = field & 0xFFFF;
        PcapVariant variant = nanos || order != LengthOrder.NORMAL ? PcapVariant.STANDARD
                : PcapVariant.choose(in, bigEndian, snapLength, maxCapturedLength(linkType));
        return new PcapReader(file, in, bigEndian, nanos ? 1 : 1000, linkType, variant, order);
    }

    /** The largest captured length tshark accepts for a link type: 128 MiB for D-Bus and USBPcap, else 262144. */
    static int maxCapturedLength(int linkType) {
        return linkType == LINKTYPE_DBUS || linkType == LINKTYPE_USBPCAP ? 128 * 1024 * 1024 : MAX_CAPTURED_LENGTH;
    }

    @Override
    void readAll(PacketHandler handler) throws CaptureFileException {
        final InputWindow in = this.in;
        final boolean be = bigEndian;
        final int header = recordHeader;
        long count = delivered();
        while (!stopRequested()) {
            if (in.limit - in.pos < header && !request(header, "packet record header", true)) {
                return;
            }
            int p = in.pos;
            byte[] b = in.buf;
            int capLen = Bytes.i32(b, p + 8, be);
            int wireLen = Bytes.i32(b, p + 12, be);
            if (lengthOrder != LengthOrder.NORMAL && (lengthOrder == LengthOrder.SWAPPED
                    || Integer.compareUnsigned(capLen, wireLen) > 0)) {
                int swap = capLen;
                capLen = wireLen;
                wireLen = swap;
            }
            if (capLen < 0 || capLen > maxCaptured) {
                throw corrupt(in.offsetOf(p), "packet record of " + Integer.toUnsignedString(capLen)
                        + " captured bytes is bigger than the maximum of " + maxCaptured);
            }
            int recordLength = header + capLen;
            if (in.limit - p < recordLength) {
                request(recordLength, "packet record", false);
                p = in.pos;
                b = in.buf;
            }
            long nanos = Bytes.u32(b, p, be) * 1_000_000_000L + Bytes.u32(b, p + 4, be) * fractionToNanos;
            in.pos = p + recordLength;
            handler.onPacket(nanos, linkType, b, p + header, capLen, wireLen < 0 ? Integer.MAX_VALUE : wireLen);
            countDelivered(++count);
        }
    }
}
