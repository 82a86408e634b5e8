package io.siteflow.synth;

/**
 * Builds Ethernet II frames carrying IPv4 or IPv6 with TCP or UDP and the given payload: correct IP total
 * length / payload length, IPv4 header checksum and TCP/UDP checksums; IPv4 with DF set and TTL 64, IPv6 with
 * hop limit 64 and no extension headers. MAC addresses are derived from the IP addresses
 * ({@code 02:00:} + the last four address bytes), so equal addresses give equal frames.
 *
 * <p>Stateless and thread-safe. Throws {@link IllegalArgumentException} when the two addresses are of
 * different families or the options are not a multiple of 4 bytes (at most 40).
 */
public final class Frames {
    public static final int ETHERNET_HEADER = 14;
    public static final int IPV4_HEADER = 20;
    public static final int IPV6_HEADER = 40;
    public static final int TCP_HEADER = 20;
    public static final int UDP_HEADER = 8;
    public static final int FIN = 0x01;
    public static final int SYN = 0x02;
    public static final int RST = 0x04;
    public static final int PSH = 0x08;
    public static final int ACK = 0x10;
    private static final int TCP = 6;
    private static final int UDP = 17;

    private Frames() {
    }

    /** The fixed part of a TCP header. {@code seq} and {@code ack} are taken modulo 2^32. */
    public record TcpHeader(long seq, long ack, int flags, int window, byte[] options) {
        private static final byte[] NONE = new byte[0];

        public TcpHeader {
            options = options == null ? NONE : options;
            if (options.length % 4 != 0 || options.length > 40) {
                throw new IllegalArgumentException("TCP options of " + options.length
                        + " bytes: must be a multiple of 4, at most 40");
            }
        }

        public TcpHeader(long seq, long ack, int flags, int window) {
            this(seq, ack, flags, window, NONE);
        }
    }

    /** A TCP frame with {@code payload[offset, offset+length)}. */
    public static byte[] tcp(Endpoint src, Endpoint dst, int ipId, TcpHeader h, byte[] payload, int offset, int length) {
        int tcpLen = TCP_HEADER + h.options().length;
        int ipHeader = ipHeader(src, dst);
        byte[] f = new byte[ETHERNET_HEADER + ipHeader + tcpLen + length];
        int t = writeIp(f, src, dst, ipId, TCP, tcpLen + length);
        putInt(f, t, src.port() << 16 | dst.port());
        putInt(f, t + 4, (int) h.seq());
        putInt(f, t + 8, (int) h.ack());
        f[t + 12] = (byte) ((tcpLen / 4) << 4 | (h.flags() >>> 8 & 1));
        f[t + 13] = (byte) h.flags();
        putShort(f, t + 14, h.window());
        System.arraycopy(h.options(), 0, f, t + TCP_HEADER, h.options().length);
        System.arraycopy(payload, offset, f, t + tcpLen, length);
        putShort(f, t + 16, transportChecksum(f, src.isV4(), t, tcpLen + length, TCP));
        return f;
    }

    /** A UDP frame with {@code payload[offset, offset+length)}. */
    public static byte[] udp(Endpoint src, Endpoint dst, int ipId, byte[] payload, int offset, int length) {
        int udpLen = UDP_HEADER + length;
        byte[] f = new byte[ETHERNET_HEADER + ipHeader(src, dst) + udpLen];
        int u = writeIp(f, src, dst, ipId, UDP, udpLen);
        putInt(f, u, src.port() << 16 | dst.port());
        putShort(f, u + 4, udpLen);
        System.arraycopy(payload, offset, f, u + UDP_HEADER, length);
        int sum = transportChecksum(f, src.isV4(), u, udpLen, UDP);
        putShort(f, u + 6, sum == 0 ? 0xFFFF : sum);
        return f;
    }

    /** IP bytes of a frame built here (IP header + payload, as iftop counts them). */
    public static int ipBytes(byte[] frame) {
        return frame.length - ETHERNET_HEADER;
    }

    private static int ipHeader(Endpoint src, Endpoint dst) {
        if (src.isV4() != dst.isV4()) {
            throw new IllegalArgumentException(src + " and " + dst + " are of different address families");
        }
        return src.isV4() ? IPV4_HEADER : IPV6_HEADER;
    }

    /** Writes Ethernet and IP headers; returns the offset of the transport header. */
    private static int writeIp(byte[] f, Endpoint src, Endpoint dst, int ipId, int proto, int ipPayload) {
        byte[] s = src.address().getAddress();
        byte[] d = dst.address().getAddress();
        writeMac(f, 0, d);
        writeMac(f, 6, s);
        int ip = ETHERNET_HEADER;
        if (src.isV4()) {
            putShort(f, 12, 0x0800);
            f[ip] = 0x45;
            putShort(f, ip + 2, IPV4_HEADER + ipPayload);
            putShort(f, ip + 4, ipId);
            f[ip + 6] = 0x40;
            f[ip + 8] = 64;
            f[ip + 9] = (byte) proto;
            System.arraycopy(s, 0, f, ip + 12, 4);
            System.arraycopy(d, 0, f, ip + 16, 4);
            putShort(f, ip + 10, fold(sum(f, ip, IPV4_HEADER, 0)) ^ 0xFFFF);
            return ip + IPV4_HEADER;
        }
        putShort(f, 12, 0x86DD);
        f[ip] = 0x60;
        putShort(f, ip + 4, ipPayload);
        f[ip + 6] = (byte) proto;
        f[ip + 7] = 64;
        System.arraycopy(s, 0, f, ip + 8, 16);
        System.arraycopy(d, 0, f, ip + 24, 16);
        return ip + IPV6_HEADER;
    }

    private static void writeMac(byte[] f, int at, byte[] address) {
        f[at] = 0x02;
        f[at + 1] = 0x00;
        System.arraycopy(address, address.length - 4, f, at + 2, 4);
    }

    private static int transportChecksum(byte[] f, boolean v4, int at, int length, int proto) {
        int addrAt = v4 ? ETHERNET_HEADER + 12 : ETHERNET_HEADER + 8;
        int addrLen = v4 ? 8 : 32;
        long sum = sum(f, addrAt, addrLen, proto + length);
        sum = sum(f, at, length, sum);
        return fold(sum) ^ 0xFFFF;
    }

    /** One's-complement sum of 16-bit big-endian words (odd length padded with a zero byte). */
    private static long sum(byte[] b, int at, int length, long start) {
        long sum = start;
        int end = at + (length & ~1);
        for (int i = at; i < end; i += 2) {
            sum += (b[i] & 0xFF) << 8 | (b[i + 1] & 0xFF);
        }
        if ((length & 1) != 0) {
            sum += (b[end] & 0xFF) << 8;
        }
        return sum;
    }

    private static int fold(long sum) {
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int) sum;
    }

    static void putShort(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 8);
        b[at + 1] = (byte) v;
    }

    static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }
}
