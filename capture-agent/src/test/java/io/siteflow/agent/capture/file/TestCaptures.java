package io.siteflow.agent.capture.file;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/** Writes pcap and pcapng fixtures byte by byte, in either byte order, for the reader tests. */
final class TestCaptures {
    private TestCaptures() {
    }

    static Pcap pcap(ByteOrder order, boolean nanos, int linkTypeField) {
        return new Pcap(order, nanos ? 0xA1B23C4D : 0xA1B2C3D4, 2, 4, linkTypeField);
    }

    static Pcapng pcapng(ByteOrder order) {
        return new Pcapng().section(order, 1, 0);
    }

    static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static Path write(Path file, byte[] bytes) {
        try {
            return Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Packet bytes 0, 1, 2, ... (mod 256) plus {@code seed}. */
    static byte[] data(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (i + seed);
        }
        return b;
    }

    /** Base for the two writers: a growing buffer in one byte order. */
    abstract static class Writer<T extends Writer<T>> {
        ByteBuffer out = ByteBuffer.allocate(1 << 16);

        abstract T self();

        T int32(long v) {
            ensure(4);
            out.putInt((int) v);
            return self();
        }

        T int16(int v) {
            ensure(2);
            out.putShort((short) v);
            return self();
        }

        T raw(byte... bytes) {
            ensure(bytes.length);
            out.put(bytes);
            return self();
        }

        void ensure(int n) {
            if (out.remaining() < n) {
                ByteBuffer bigger = ByteBuffer.allocate(Math.max(out.capacity() * 2, out.position() + n)).order(out.order());
                out.flip();
                bigger.put(out);
                out = bigger;
            }
        }

        byte[] bytes() {
            byte[] b = new byte[out.position()];
            out.duplicate().flip().get(b);
            return b;
        }

        Path writeTo(Path file) {
            return write(file, bytes());
        }
    }

    /** Classic pcap: header in the constructor, then {@link #packet} records. */
    static final class Pcap extends Writer<Pcap> {
        Pcap(ByteOrder order, int magic, int major, int minor, int linkTypeField) {
            out.order(order);
            int32(magic).int16(major).int16(minor).int32(0).int32(0).int32(65535).int32(linkTypeField);
        }

        @Override
        Pcap self() {
            return this;
        }

        Pcap packet(long seconds, long fraction, byte[] data, long wireLength) {
            return int32(seconds).int32(fraction).int32(data.length).int32(wireLength).raw(data);
        }
    }

    /** pcapng: blocks with correct lengths and padding unless written raw. */
    static final class Pcapng extends Writer<Pcapng> {
        @Override
        Pcapng self() {
            return this;
        }

        Pcapng section(ByteOrder order, int major, int minor) {
            out.order(order);
            return block(0x0A0D0D0A, body(order).putInt(0x1A2B3C4D).putShort((short) major).putShort((short) minor)
                    .putLong(-1));
        }

        /** An interface; {@code options} are (code, value bytes) pairs written before opt_endofopt. */
        Pcapng idb(int linkType, int snapLength, Object... options) {
            ByteBuffer b = body(out.order()).putShort((short) linkType).putShort((short) 0).putInt(snapLength);
            for (int i = 0; i < options.length; i += 2) {
                byte[] value = (byte[]) options[i + 1];
                b.putShort((short) (int) (Integer) options[i]).putShort((short) value.length).put(value);
                b.put(new byte[pad(value.length)]);
            }
            if (options.length > 0) {
                b.putInt(0);
            }
            return block(1, b);
        }

        Pcapng epb(int iface, long timestamp, byte[] data, int wireLength) {
            ByteBuffer b = body(out.order()).putInt(iface).putInt((int) (timestamp >>> 32)).putInt((int) timestamp)
                    .putInt(data.length).putInt(wireLength).put(data).put(new byte[pad(data.length)]);
            return block(6, b);
        }

        Pcapng pb(int iface, long timestamp, byte[] data, int wireLength) {
            ByteBuffer b = body(out.order()).putShort((short) iface).putShort((short) 0).putInt((int) (timestamp >>> 32))
                    .putInt((int) timestamp).putInt(data.length).putInt(wireLength).put(data).put(new byte[pad(data.length)]);
            return block(2, b);
        }

        Pcapng spb(byte[] data, int wireLength) {
            return block(3, body(out.order()).putInt(wireLength).put(data).put(new byte[pad(data.length)]));
        }

        /** Any block with the given body (padded to 4 bytes). */
        Pcapng block(int type, byte[] body) {
            return block(type, body(out.order()).put(body).put(new byte[pad(body.length)]));
        }

        private Pcapng block(int type, ByteBuffer body) {
            int length = 12 + body.position();
            int32(type).int32(length);
            ensure(body.position());
            out.put(body.flip());
            return int32(length);
        }

        private static ByteBuffer body(ByteOrder order) {
            return ByteBuffer.allocate(1 << 19).order(order);
        }
    }

    static int pad(int length) {
        return (4 - length % 4) % 4;
    }

    /** Option value bytes of a 64-bit number in the given byte order. */
    static byte[] int64(long value, ByteOrder order) {
        return ByteBuffer.allocate(8).order(order).putLong(value).array();
    }
}
