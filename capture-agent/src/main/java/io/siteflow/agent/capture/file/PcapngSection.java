package io.siteflow.agent.capture.file;

import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.decode.Bytes;
import java.util.Arrays;

/**
 * The state of the current pcapng section: its byte order and its interfaces (link type, snap length,
 * timestamp scale), read from the section header and interface description blocks, with their options
 * checked. Not thread-safe.
 */
final class PcapngSection {
    static final int BYTE_ORDER_MAGIC = 0x1A2B3C4D;
    private static final int OPTION_END = 0;
    private static final int IF_TSRESOL = 9;
    private static final int IF_TSOFFSET = 14;

    private final FormatReader owner;
    boolean bigEndian;
    int interfaceCount;
    int[] linkTypes = new int[4];
    long[] snapLengths = new long[4];
    TimestampScale[] scales = new TimestampScale[4];

    PcapngSection(FormatReader owner) {
        this.owner = owner;
    }

    /** True when {@code version} (major.minor) is one this reader handles: 1.0, or 1.2 (read as 1.0, like libpcap). */
    static boolean supportedVersion(int major, int minor) {
        return major == 1 && (minor == 0 || minor == 2);
    }

    /** Starts a new section from a complete section header block at {@code b[p..p+length)}. */
    void begin(byte[] b, int p, int length, boolean bigEndian, long offset) throws CaptureFileException {
        this.bigEndian = bigEndian;
        int major = Bytes.u16(b, p + 12, bigEndian);
        int minor = Bytes.u16(b, p + 14, bigEndian);
        if (!supportedVersion(major, minor)) {
            throw owner.unsupported(offset + 12, "pcapng version " + major + "." + minor
                    + " is not supported (only 1.0 and 1.2)");
        }
        checkOptions(b, p, p + 24, p + length - 4, offset, "section header block");
        interfaceCount = 0;
    }

    /** Adds the interface of a complete interface description block at {@code b[p..p+length)}. */
    void addInterface(byte[] b, int p, int length, long offset) throws CaptureFileException {
        int tsresol = 6;
        long tsoffset = 0;
        int end = p + length - 4;
        int option = p + 16;
        while (end - option >= 4) {
            int code = Bytes.u16(b, option, bigEndian);
            int optionLength = Bytes.u16(b, option + 2, bigEndian);
            if (code == OPTION_END) {
                break;
            }
            checkFits(option, optionLength, end, p, offset, "interface description block");
            if (code == IF_TSRESOL && optionLength >= 1) {
                tsresol = b[option + 4] & 0xFF;
            } else if (code == IF_TSOFFSET && optionLength >= 8) {
                tsoffset = Bytes.i64(b, option + 4, bigEndian);
            }
            option += 4 + ((optionLength + 3) & ~3);
        }
        if (interfaceCount == linkTypes.length) {
            int grown = interfaceCount * 2;
            linkTypes = Arrays.copyOf(linkTypes, grown);
            snapLengths = Arrays.copyOf(snapLengths, grown);
            scales = Arrays.copyOf(scales, grown);
        }
        linkTypes[interfaceCount] = Bytes.u16(b, p + 8, bigEndian);
        snapLengths[interfaceCount] = Bytes.u32(b, p + 12, bigEndian);
        scales[interfaceCount] = tsresol == 6 && tsoffset == 0 ? TimestampScale.MICROS : TimestampScale.of(tsresol, tsoffset);
        interfaceCount++;
    }

    /**
     * Checks that every option in {@code b[start..end)} fits in the block.
     *
     * @throws CaptureFileException CORRUPT naming the block and the option
     */
    void checkOptions(byte[] b, int p, int start, int end, long offset, String block) throws CaptureFileException {
        int option = start;
        while (end - option >= 4) {
            int code = Bytes.u16(b, option, bigEndian);
            int optionLength = Bytes.u16(b, option + 2, bigEndian);
            if (code == OPTION_END) {
                return;
            }
            checkFits(option, optionLength, end, p, offset, block);
            option += 4 + ((optionLength + 3) & ~3);
        }
    }

    private void checkFits(int option, int optionLength, int end, int p, long offset, String block)
            throws CaptureFileException {
        int left = end - option - 4;
        if (optionLength > left) {
            throw owner.corrupt(offset, block + " option at byte " + (offset + option - p) + " has length "
                    + optionLength + ", but only " + left + " bytes are left in the block");
        }
    }
}
