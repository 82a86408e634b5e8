package io.siteflow.agent.decode;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The agent's byte reads, used by the capture file readers, the decoders and the signature matchers: big- and
 * little-endian integers, integers in a byte order chosen at run time (capture file headers), and ASCII pattern
 * matching. Reads are unchecked: callers bound-check against the captured end first (an index past it throws
 * {@link ArrayIndexOutOfBoundsException}); the pattern matchers take the end ({@code end}, exclusive) and never
 * read past it. Stateless; thread-safe.
 */
public final class Bytes {
    private static final VarHandle I16_LE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I16_BE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle I32_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I32_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private Bytes() {
    }

    public static int u8(byte[] b, int i) {
        return b[i] & 0xFF;
    }

    /** Unsigned 16-bit big-endian value. */
    public static int u16(byte[] b, int i) {
        return (b[i] & 0xFF) << 8 | (b[i + 1] & 0xFF);
    }

    /** Unsigned 16-bit little-endian value. */
    public static int u16le(byte[] b, int i) {
        return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8;
    }

    /** Unsigned 24-bit big-endian value. */
    public static int u24(byte[] b, int i) {
        return (b[i] & 0xFF) << 16 | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF);
    }

    /** Signed 32-bit big-endian value. */
    public static int i32(byte[] b, int i) {
        return (b[i] & 0xFF) << 24 | (b[i + 1] & 0xFF) << 16 | (b[i + 2] & 0xFF) << 8 | (b[i + 3] & 0xFF);
    }

    /** Unsigned 32-bit big-endian value in a long. */
    public static long u32(byte[] b, int i) {
        return i32(b, i) & 0xFFFF_FFFFL;
    }

    /** Signed 32-bit little-endian value. */
    public static int i32le(byte[] b, int i) {
        return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16 | (b[i + 3] & 0xFF) << 24;
    }

    /** 64-bit big-endian value. */
    public static long u64(byte[] b, int i) {
        return (u32(b, i) << 32) | u32(b, i + 4);
    }

    /** The signed 32-bit value at {@code b[p..p+4)} in the given byte order. */
    public static int i32(byte[] b, int p, boolean bigEndian) {
        return bigEndian ? (int) I32_BE.get(b, p) : (int) I32_LE.get(b, p);
    }

    /** The unsigned 32-bit value at {@code b[p..p+4)} in the given byte order. */
    public static long u32(byte[] b, int p, boolean bigEndian) {
        return i32(b, p, bigEndian) & 0xFFFF_FFFFL;
    }

    /** The unsigned 16-bit value at {@code b[p..p+2)} in the given byte order. */
    public static int u16(byte[] b, int p, boolean bigEndian) {
        return (bigEndian ? (short) I16_BE.get(b, p) : (short) I16_LE.get(b, p)) & 0xFFFF;
    }

    /** The 64-bit value at {@code b[p..p+8)} stored as two 32-bit halves, high half first (pcapng timestamps). */
    public static long hiLo64(byte[] b, int p, boolean bigEndian) {
        return (u32(b, p, bigEndian) << 32) | u32(b, p + 4, bigEndian);
    }

    /** The 64-bit value at {@code b[p..p+8)} in the given byte order (pcapng option values). */
    public static long i64(byte[] b, int p, boolean bigEndian) {
        long first = u32(b, p, bigEndian);
        long second = u32(b, p + 4, bigEndian);
        return bigEndian ? (first << 32) | second : (second << 32) | first;
    }

    /** True when {@code d[i..]} starts with the bytes of {@code p} and they lie before {@code end}. */
    public static boolean startsWith(byte[] d, int i, int end, byte[] p) {
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
    public static int indexOf(byte[] d, int from, int end, byte[] p) {
        byte first = p[0];
        int last = end - p.length;
        for (int i = from; i <= last; i++) {
            if (d[i] == first && startsWith(d, i, end, p)) {
                return i;
            }
        }
        return -1;
    }

    public static boolean isDigit(int b) {
        return b >= '0' && b <= '9';
    }

    /** Printable ASCII (space to tilde). */
    public static boolean isPrintable(int b) {
        return b >= 0x20 && b < 0x7f;
    }

    /** The US-ASCII bytes of {@code s}. */
    public static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
