package io.siteflow.agent.decode;

import java.io.ByteArrayOutputStream;

/** Builds packet byte fixtures for the decoder tests (big-endian unless the method says otherwise). */
final class Fx {
    static final byte[] MAC_A = {2, 0, 0, 0, 0, 1};
    static final byte[] MAC_B = {2, 0, 0, 0, 0, 2};
    static final byte[] V4_A = {10, 1, 0, 10};
    static final byte[] V4_B = {10, 2, 0, 20};
    static final byte[] V6_A = v6(0x20010db8, 0, 0, 1);
    static final byte[] V6_B = v6(0x20010db8, 0, 0, 2);

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    static Fx of() {
        return new Fx();
    }

    Fx u8(int... values) {
        for (int v : values) {
            out.write(v);
        }
        return this;
    }

    Fx u16(int v) {
        return u8(v >> 8 & 0xFF, v & 0xFF);
    }

    Fx u16le(int v) {
        return u8(v & 0xFF, v >> 8 & 0xFF);
    }

    Fx u32(long v) {
        return u16((int) (v >> 16 & 0xFFFF)).u16((int) (v & 0xFFFF));
    }

    Fx u32le(long v) {
        return u16le((int) (v & 0xFFFF)).u16le((int) (v >> 16 & 0xFFFF));
    }

    Fx bytes(byte[] b) {
        out.writeBytes(b);
        return this;
    }

    Fx zeros(int n) {
        return bytes(new byte[n]);
    }

    byte[] build() {
        return out.toByteArray();
    }

    static byte[] v6(int w0, int w1, int w2, int w3) {
        return of().u32(w0 & 0xFFFFFFFFL).u32(w1 & 0xFFFFFFFFL).u32(w2 & 0xFFFFFFFFL).u32(w3 & 0xFFFFFFFFL).build();
    }

    static byte[] cat(byte[]... parts) {
        Fx f = of();
        for (byte[] p : parts) {
            f.bytes(p);
        }
        return f.build();
    }

    static byte[] ethernet(int type, byte[] payload) {
        return of().bytes(MAC_B).bytes(MAC_A).u16(type).bytes(payload).build();
    }

    /** An IPv4 header (total length from the payload unless {@code totalLength >= 0}) and payload. */
    static byte[] ipv4(int protocol, byte[] options, int flagsOffset, int totalLength, byte[] payload) {
        int headerLength = 20 + options.length;
        int total = totalLength >= 0 ? totalLength : headerLength + payload.length;
        return of().u8(0x40 | headerLength / 4, 0).u16(total).u16(0x1234).u16(flagsOffset).u8(64, protocol).u16(0)
                .bytes(V4_A).bytes(V4_B).bytes(options).bytes(payload).build();
    }

    static byte[] ipv4(int protocol, byte[] payload) {
        return ipv4(protocol, new byte[0], 0x4000, -1, payload);
    }

    /** An IPv6 header with payload length from {@code payload} unless {@code payloadLength >= 0}. */
    static byte[] ipv6(int next, int payloadLength, byte[] payload) {
        int length = payloadLength >= 0 ? payloadLength : payload.length;
        return of().u32(0x60000000L).u16(length).u8(next, 64).bytes(V6_A).bytes(V6_B).bytes(payload).build();
    }

    static byte[] ipv6(int next, byte[] payload) {
        return ipv6(next, -1, payload);
    }

    /** A TCP header of {@code dataOffset} 32-bit words with the given flags, then the payload. */
    static byte[] tcp(int srcPort, int dstPort, int flags, int dataOffset, byte[] payload) {
        return of().u16(srcPort).u16(dstPort).u32(0x01020304L).u32(0xA0B0C0D0L)
                .u8(dataOffset << 4 | flags >> 8 & 1, flags & 0xFF)
                .u16(8192).u16(0).u16(0).zeros((dataOffset - 5) * 4).bytes(payload).build();
    }

    static byte[] tcp(byte[] payload) {
        return tcp(40000, 1521, 0x18, 5, payload);
    }

    static byte[] udp(int srcPort, int dstPort, byte[] payload) {
        return of().u16(srcPort).u16(dstPort).u16(8 + payload.length).u16(0).bytes(payload).build();
    }

    /** A generic IPv6 extension header (hop-by-hop, routing, destination options) padded to 8-byte units. */
    static byte[] extension(int next, int units) {
        return of().u8(next, units).zeros(6 + units * 8).build();
    }

    static byte[] payload(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('a' + i % 26);
        }
        return b;
    }
}
