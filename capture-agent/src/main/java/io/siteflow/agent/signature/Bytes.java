package io.siteflow.agent.signature;

/**
 * Bounds-checked reads of big-endian integers and ASCII patterns from a payload. Callers pass the end
 * of the captured bytes ({@code end}, exclusive); reads past it are the caller's bug, so every matcher
 * checks the length it needs first. Stateless.
 */
final class Bytes {

    private Bytes() {
    }

    static int u8(byte[] d, int i) {
        return d[i] & 0xff;
    }

    static int u16(byte[] d, int i) {
        return (d[i] & 0xff) << 8 | (d[i + 1] & 0xff);
    }

    static int u24(byte[] d, int i) {
        return (d[i] & 0xff) << 16 | (d[i + 1] & 0xff) << 8 | (d[i + 2] & 0xff);
    }

    /** Unsigned 32-bit big-endian value in a long. */
    static long u32(byte[] d, int i) {
        return ((long) (d[i] & 0xff) << 24) | (d[i + 1] & 0xff) << 16 | (d[i + 2] & 0xff) << 8 | (d[i + 3] & 0xff);
    }

    /** Signed 32-bit big-endian value. */
    static int i32(byte[] d, int i) {
        return (d[i] & 0xff) << 24 | (d[i + 1] & 0xff) << 16 | (d[i + 2] & 0xff) << 8 | (d[i + 3] & 0xff);
    }

    /** True when {@code d[i..]} starts with the ASCII bytes of {@code p} and they lie before {@code end}. */
    static boolean startsWith(byte[] d, int i, int end, byte[] p) {
        if (end - i < p.length) {
            return false;
        }
        for (int k = 0; k < p.length; k++) {
            if (d[i + k] != p[k]) {
                return false;
            }
        }
        return true;
    }

    /** First index of {@code p} in {@code d[from, end)}, or -1. */
    static int indexOf(byte[] d, int from, int end, byte[] p) {
        byte first = p[0];
        int last = end - p.length;
        for (int i = from; i <= last; i++) {
            if (d[i] == first && startsWith(d, i, end, p)) {
                return i;
            }
        }
        return -1;
    }

    static boolean isDigit(int b) {
        return b >= '0' && b <= '9';
    }

    /** Printable ASCII (space to tilde). */
    static boolean isPrintable(int b) {
        return b >= 0x20 && b < 0x7f;
    }

    static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
