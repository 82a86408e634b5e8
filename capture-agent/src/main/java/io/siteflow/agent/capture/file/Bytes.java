package io.siteflow.agent.capture.file;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Reads fixed-width integers from a byte array in either byte order. Stateless; thread-safe. */
final class Bytes {
    private static final VarHandle I16_LE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I16_BE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle I32_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I32_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private Bytes() {
    }

    /** The signed 32-bit value at {@code b[p..p+4)}. */
    static int i32(byte[] b, int p, boolean bigEndian) {
        return bigEndian ? (int) I32_BE.get(b, p) : (int) I32_LE.get(b, p);
    }

    /** The unsigned 32-bit value at {@code b[p..p+4)}. */
    static long u32(byte[] b, int p, boolean bigEndian) {
        return i32(b, p, bigEndian) & 0xFFFF_FFFFL;
    }

    /** The unsigned 16-bit value at {@code b[p..p+2)}. */
    static int u16(byte[] b, int p, boolean bigEndian) {
        return (bigEndian ? (short) I16_BE.get(b, p) : (short) I16_LE.get(b, p)) & 0xFFFF;
    }

    /** The 64-bit value at {@code b[p..p+8)} stored as two 32-bit halves, high half first (pcapng timestamps). */
    static long hiLo64(byte[] b, int p, boolean bigEndian) {
        return (u32(b, p, bigEndian) << 32) | u32(b, p + 4, bigEndian);
    }

    /** The 64-bit value at {@code b[p..p+8)} in the given byte order (pcapng option values). */
    static long i64(byte[] b, int p, boolean bigEndian) {
        long first = u32(b, p, bigEndian);
        long second = u32(b, p + 4, bigEndian);
        return bigEndian ? (first << 32) | second : (second << 32) | first;
    }
}
