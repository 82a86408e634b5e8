package io.siteflow.agent.decode;

/** Unchecked big- and little-endian reads; callers bound-check against the captured end first. */
final class Bytes {
    private Bytes() {
    }

    static int u8(byte[] b, int i) {
        return b[i] & 0xFF;
    }

    static int u16(byte[] b, int i) {
        return (b[i] & 0xFF) << 8 | (b[i + 1] & 0xFF);
    }

    static int u16le(byte[] b, int i) {
        return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8;
    }

    static int u24(byte[] b, int i) {
        return (b[i] & 0xFF) << 16 | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF);
    }

    static int s32(byte[] b, int i) {
        return (b[i] & 0xFF) << 24 | (b[i + 1] & 0xFF) << 16 | (b[i + 2] & 0xFF) << 8 | (b[i + 3] & 0xFF);
    }

    static long u32(byte[] b, int i) {
        return s32(b, i) & 0xFFFF_FFFFL;
    }

    static int s32le(byte[] b, int i) {
        return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16 | (b[i + 3] & 0xFF) << 24;
    }

    static long u64(byte[] b, int i) {
        return (u32(b, i) << 32) | u32(b, i + 4);
    }
}
