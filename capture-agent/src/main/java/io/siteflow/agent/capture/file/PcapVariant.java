package io.siteflow.agent.capture.file;

import io.siteflow.agent.decode.Bytes;
import java.io.IOException;

/**
 * The record-header layouts that share the standard pcap magic (a1b2c3d4, microseconds). Like
 * Wireshark's wiretap, the reader scores the first three records under each layout and takes the first
 * layout without problems, else the one with the fewest; so files written by old patched libpcaps
 * (Red Hat 6.1's "ss990417", Nokia IPSO) and fuzzed files are counted as tshark counts them.
 */
enum PcapVariant {
    /** 16-byte record header: seconds, fraction, captured length, wire length. */
    STANDARD(16),
    /** 24 bytes: the standard header plus interface index (4), protocol (2), packet type (1), padding (1). */
    SS990417(24),
    /** 20 bytes: the standard header plus 4 bytes of Nokia-specific data. */
    NOKIA(20);

    private static final int RECORDS_TO_TRY = 3;
    private static final long MAX_PLAUSIBLE_WIRE_LENGTH = 128L * 1024 * 1024;

    /** Bytes in this layout's record header. */
    final int headerLength;

    PcapVariant(int headerLength) {
        this.headerLength = headerLength;
    }

    /**
     * Chooses the layout for the records starting at {@code in.pos}, without consuming them.
     *
     * @param snapLength   the file header's snapshot length
     * @param maxCaptured  the largest captured length accepted for the file's link type
     */
    static PcapVariant choose(InputWindow in, boolean bigEndian, long snapLength, int maxCaptured) {
        PcapVariant best = STANDARD;
        int bestScore = Integer.MAX_VALUE;
        for (PcapVariant variant : values()) {
            int score = variant.score(in, bigEndian, snapLength, maxCaptured);
            if (score == 0) {
                return variant;
            }
            if (score < bestScore) {
                best = variant;
                bestScore = score;
            }
        }
        return best;
    }

    /**
     * Problems found in the first records read with this layout: 0 means none, else the number of
     * problems of the first record that has any (tshark 4.0's rule).
     */
    private int score(InputWindow in, boolean be, long snapLength, int maxCaptured) {
        long at = 0;
        for (int record = 0; record < RECORDS_TO_TRY; record++) {
            if (!have(in, at + 1)) {
                return 0;
            }
            if (!have(in, at + headerLength)) {
                return 1;
            }
            long captured = u32(in, at + 8, be);
            long wire = u32(in, at + 12, be);
            int problems = (u32(in, at + 4, be) >= 1_000_000 ? 1 : 0) + (captured > maxCaptured ? 1 : 0)
                    + (wire > MAX_PLAUSIBLE_WIRE_LENGTH ? 1 : 0) + (captured > snapLength ? 1 : 0)
                    + (captured > wire ? 1 : 0);
            if (problems != 0) {
                return problems;
            }
            at += headerLength + captured;
            if (!have(in, at)) {
                return 1;
            }
        }
        return 0;
    }

    private static long u32(InputWindow in, long at, boolean be) {
        return Bytes.u32(in.buf, in.pos + (int) at, be);
    }

    /** True when {@code n} bytes from {@code in.pos} are available (read errors count as the end of the data). */
    private static boolean have(InputWindow in, long n) {
        if (n > Integer.MAX_VALUE - 16) {
            return false;
        }
        try {
            return in.request((int) n);
        } catch (IOException e) {
            return in.available() >= n;
        }
    }
}
