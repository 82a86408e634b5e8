package io.siteflow.agent.export;

import java.nio.ByteBuffer;

/** Writes NetFlow v5/v9 and IPFIX datagrams field by field for the decoder tests (big-endian, as on the wire). */
final class Datagram {
    private final ByteBuffer b = ByteBuffer.allocate(65536);
    private final int version;
    private int setStart = -1;

    private Datagram(int version) {
        this.version = version;
    }

    /** A NetFlow v5 header; the records follow. */
    static Datagram v5(int count, long uptime, long secs, long nsecs, long sequence, int engine, int sampling) {
        Datagram d = new Datagram(5);
        d.u16(5).u16(count).u32(uptime).u32(secs).u32(nsecs).u32(sequence).u8(engine >> 8).u8(engine & 0xFF)
                .u16(sampling);
        return d;
    }

    /** A NetFlow v9 header (record count 0: not read); FlowSets follow. */
    static Datagram v9(long uptime, long secs, long sequence, long sourceId) {
        Datagram d = new Datagram(9);
        d.u16(9).u16(0).u32(uptime).u32(secs).u32(sequence).u32(sourceId);
        return d;
    }

    /** An IPFIX message header (length filled in by {@link #build()}); sets follow. */
    static Datagram ipfix(long exportTime, long sequence, long domain) {
        Datagram d = new Datagram(10);
        d.u16(10).u16(0).u32(exportTime).u32(sequence).u32(domain);
        return d;
    }

    /** One NetFlow v5 record, 48 bytes. */
    Datagram v5Record(int src, int dst, long packets, long octets, long first, long last, int srcPort, int dstPort,
            int flags, int proto) {
        u32(src & 0xFFFF_FFFFL).u32(dst & 0xFFFF_FFFFL).u32(0).u16(1).u16(2).u32(packets).u32(octets).u32(first)
                .u32(last).u16(srcPort).u16(dstPort).u8(0).u8(flags).u8(proto).u8(0).u16(0).u16(0).u8(24).u8(24)
                .u16(0);
        return this;
    }

    Datagram set(int id) {
        setStart = b.position();
        return u16(id).u16(0);
    }

    Datagram endSet() {
        b.putShort(setStart + 2, (short) (b.position() - setStart));
        setStart = -1;
        return this;
    }

    Datagram u8(int v) {
        b.put((byte) v);
        return this;
    }

    Datagram u16(int v) {
        b.putShort((short) v);
        return this;
    }

    Datagram u32(long v) {
        b.putInt((int) v);
        return this;
    }

    Datagram u64(long v) {
        b.putLong(v);
        return this;
    }

    Datagram bytes(byte[] v) {
        b.put(v);
        return this;
    }

    /** An IPv4 address given as text. */
    Datagram ip4(String dotted) {
        for (String part : dotted.split("\\.")) {
            u8(Integer.parseInt(part));
        }
        return this;
    }

    /** The datagram, its IPFIX length set, ready to decode (position 0, limit at the end). */
    ByteBuffer build() {
        if (setStart >= 0) {
            endSet();
        }
        if (version == 10) {
            b.putShort(2, (short) b.position());
        }
        ByteBuffer out = ByteBuffer.allocate(b.position());
        out.put(b.array(), 0, b.position()).flip();
        return out;
    }

    static int ip(String dotted) {
        int v = 0;
        for (String part : dotted.split("\\.")) {
            v = (v << 8) | Integer.parseInt(part);
        }
        return v;
    }
}
