package io.siteflow.agent.capture.file;

import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.capture.CaptureFileException.Kind;
import io.siteflow.agent.capture.PacketHandler;
import io.siteflow.agent.decode.Bytes;
import java.io.IOException;
import java.nio.file.Path;

/**
 * pcapng: sections (either byte order, version 1.0), interface description blocks, enhanced, simple and
 * obsolete packet blocks; every other block type is checked for its length and skipped. Each packet is
 * delivered with the link type and timestamp scale of its own interface.
 */
final class PcapngReader extends FormatReader {
    static final int SECTION_HEADER = 0x0A0D0D0A;
    static final int MIN_SECTION_HEADER = 28;
    /** Largest block accepted; larger lengths are CORRUPT. */
    static final int MAX_BLOCK_LENGTH = 16 * 1024 * 1024;
    private static final int INTERFACE_DESCRIPTION = 1;
    private static final int PACKET = 2;
    private static final int SIMPLE_PACKET = 3;
    private static final int ENHANCED_PACKET = 6;

    private final PcapngSection section = new PcapngSection(this);
    private long lastNanos;
    private long count;

    private PcapngReader(Path file, InputWindow in) {
        super(file, in);
    }

    /**
     * Checks the start of the first section header block at {@code in.pos} without consuming it.
     *
     * @throws CaptureFileException NOT_A_CAPTURE for a short header or bad byte-order magic, UNSUPPORTED
     *                              for a version other than 1.0
     */
    static PcapngReader open(Path file, InputWindow in) throws CaptureFileException {
        if (in.available() < MIN_SECTION_HEADER) {
            throw new CaptureFileException(file, Kind.NOT_A_CAPTURE, 0, in.available()
                    + " bytes, too short for a pcapng section header block (" + MIN_SECTION_HEADER + " bytes)");
        }
        Boolean bigEndian = byteOrder(in.buf, in.pos);
        if (bigEndian == null) {
            throw new CaptureFileException(file, Kind.NOT_A_CAPTURE, 8, String.format(
                    "pcapng byte-order magic 0x%08x is neither 1a2b3c4d nor 4d3c2b1a", Bytes.i32(in.buf, in.pos + 8, true)));
        }
        int major = Bytes.u16(in.buf, in.pos + 12, bigEndian);
        int minor = Bytes.u16(in.buf, in.pos + 14, bigEndian);
        if (!PcapngSection.supportedVersion(major, minor)) {
            throw new CaptureFileException(file, Kind.UNSUPPORTED, 12,
                    "pcapng version " + major + "." + minor + " is not supported (only 1.0 and 1.2)");
        }
        return new PcapngReader(file, in);
    }

    /** The byte order of the section header block at {@code b[p..]}: true for big-endian, null if neither. */
    private static Boolean byteOrder(byte[] b, int p) {
        int magic = Bytes.i32(b, p + 8, true);
        if (magic == PcapngSection.BYTE_ORDER_MAGIC) {
            return true;
        }
        return magic == Integer.reverseBytes(PcapngSection.BYTE_ORDER_MAGIC) ? Boolean.FALSE : null;
    }

    @Override
    void readAll(PacketHandler handler) throws CaptureFileException {
        count = delivered();
        while (!stopRequested() && request(8, "block header", true)) {
            int type = Bytes.i32(in.buf, in.pos, section.bigEndian);
            switch (type) {
                case ENHANCED_PACKET -> packet(handler, 32, "enhanced packet block", true);
                case SIMPLE_PACKET -> simplePacket(handler);
                case PACKET -> packet(handler, 32, "packet block", false);
                case INTERFACE_DESCRIPTION -> interfaceDescription();
                case SECTION_HEADER -> sectionHeader();
                default -> skip(type);
            }
        }
    }

    private void packet(PacketHandler handler, int fixed, String name, boolean enhanced) throws CaptureFileException {
        int length = load(fixed, name);
        byte[] b = in.buf;
        int p = in.pos;
        boolean be = section.bigEndian;
        long offset = in.offsetOf(p);
        int iface = enhanced ? Bytes.i32(b, p + 8, be) : Bytes.u16(b, p + 8, be);
        if (iface < 0 || iface >= section.interfaceCount) {
            throw corrupt(offset, name + " refers to interface " + Integer.toUnsignedString(iface)
                    + ", but the section has " + section.interfaceCount + " interface(s)");
        }
        int capLen = Bytes.i32(b, p + 20, be);
        int linkType = section.linkTypes[iface];
        checkCaptured(capLen & 0xFFFF_FFFFL, linkType, length - fixed, offset, name, length);
        int optionsStart = p + fixed - 4 + ((capLen + 3) & ~3);
        if (optionsStart < p + length - 4) {
            section.checkOptions(b, p, optionsStart, p + length - 4, offset, name);
        }
        lastNanos = section.scales[iface].toNanos(Bytes.hiLo64(b, p + 12, be));
        int wireLen = Bytes.i32(b, p + 24, be);
        in.pos = p + length;
        handler.onPacket(lastNanos, linkType, b, p + 28, capLen, wireLen < 0 ? Integer.MAX_VALUE : wireLen);
        countDelivered(++count);
    }

    private void simplePacket(PacketHandler handler) throws CaptureFileException {
        String name = "simple packet block";
        int length = load(16, name);
        byte[] b = in.buf;
        int p = in.pos;
        long offset = in.offsetOf(p);
        if (section.interfaceCount == 0) {
            throw corrupt(offset, name + " refers to interface 0, but the section has 0 interface(s)");
        }
        long wireLen = Bytes.u32(b, p + 8, section.bigEndian);
        long snapLen = section.snapLengths[0];
        long capLen = snapLen != 0 && wireLen > snapLen ? snapLen : wireLen;
        checkCaptured(capLen, section.linkTypes[0], length - 16, offset, name, length);
        in.pos = p + length;
        handler.onPacket(lastNanos, section.linkTypes[0], b, p + 12, (int) capLen, (int) Math.min(wireLen, Integer.MAX_VALUE));
        countDelivered(++count);
    }

    private void checkCaptured(long capLen, int linkType, int room, long offset, String name, int length)
            throws CaptureFileException {
        int max = PcapReader.maxCapturedLength(linkType);
        if (capLen > max) {
            throw corrupt(offset, name + " holds a packet of " + capLen + " captured bytes, bigger than the maximum of " + max);
        }
        if (capLen > room) {
            throw corrupt(offset, name + " of " + length + " bytes is too short for " + capLen + " captured bytes");
        }
    }

    private void interfaceDescription() throws CaptureFileException {
        int length = load(20, "interface description block");
        section.addInterface(in.buf, in.pos, length, in.offsetOf(in.pos));
        in.pos += length;
    }

    private void sectionHeader() throws CaptureFileException {
        String name = "section header block";
        request(12, name, false);
        long offset = in.offsetOf(in.pos);
        Boolean bigEndian = byteOrder(in.buf, in.pos);
        if (bigEndian == null) {
            throw corrupt(offset, String.format("%s byte-order magic 0x%08x is neither 1a2b3c4d nor 4d3c2b1a",
                    name, Bytes.i32(in.buf, in.pos + 8, true)));
        }
        section.bigEndian = bigEndian;
        int length = load(MIN_SECTION_HEADER, name);
        section.begin(in.buf, in.pos, length, bigEndian, offset);
        in.pos += length;
    }

    private void skip(int type) throws CaptureFileException {
        String name = String.format("block of type 0x%08x", type);
        long offset = in.offsetOf(in.pos);
        int length = checkLength(12, name);
        long skipped;
        try {
            skipped = in.skip(length - 4L);
            if (skipped < length - 4L || !in.request(4)) {
                throw truncated(offset, name, length, skipped + in.available());
            }
        } catch (IOException e) {
            throw readFailure(offset, e);
        }
        checkTrailer(in.pos - (length - 4), length, offset, name);
        in.pos += 4;
    }

    /** Validates the length of the block at {@code in.pos}, makes the whole block available and checks its trailer. */
    private int load(int minimum, String name) throws CaptureFileException {
        int length = checkLength(minimum, name);
        request(length, name, false);
        checkTrailer(in.pos, length, in.offsetOf(in.pos), name);
        return length;
    }

    private int checkLength(int minimum, String name) throws CaptureFileException {
        long offset = in.offsetOf(in.pos);
        long length = Bytes.u32(in.buf, in.pos + 4, section.bigEndian);
        if (length < minimum) {
            throw corrupt(offset, name + " length " + length + " is less than " + minimum);
        }
        if (length % 4 != 0) {
            throw corrupt(offset, name + " length " + length + " is not a multiple of 4");
        }
        if (length > MAX_BLOCK_LENGTH) {
            throw corrupt(offset, name + " length " + length + " is more than the maximum of " + MAX_BLOCK_LENGTH);
        }
        return (int) length;
    }

    /** Checks the trailing length of the block starting at {@code b[p]} whose last 4 bytes are in the window. */
    private void checkTrailer(int p, int length, long offset, String name) throws CaptureFileException {
        long trailer = Bytes.u32(in.buf, p + length - 4, section.bigEndian);
        if (trailer != length) {
            throw corrupt(offset, name + " length at the end (" + trailer + ") differs from the length at the start (" + length + ")");
        }
    }
}
