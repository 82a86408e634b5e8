package io.siteflow.agent.decode;

import static io.siteflow.agent.decode.Bytes.u16;
import static io.siteflow.agent.decode.Bytes.u32;
import static io.siteflow.agent.decode.Bytes.u64;
import static io.siteflow.agent.decode.Bytes.u8;

/**
 * The outer IPv6 header and its extension header chain (hop-by-hop, routing, destination options, fragment,
 * AH, shim6). Counted when the fixed header and every extension header before the upper-layer protocol
 * were captured and lie inside the payload length, as tshark's {@code ipv6} tap requires. ESP, no next
 * header (59), mobility (135), HIP (139) and any upper-layer protocol end the chain. A payload length of 0
 * means a jumbogram when hop-by-hop carries the jumbo option, else a TSO/BIG TCP super-packet whose length
 * comes from the reported frame length (extension headers are then not allowed, as in tshark).
 */
final class Ipv6Decoder {
    private static final int HOP_BY_HOP = 0;
    private static final int ROUTING = 43;
    private static final int FRAGMENT = 44;
    private static final int AH = 51;
    private static final int DESTINATION = 60;
    private static final int SHIM6 = 140;
    private static final int JUMBO_OPTION = 0xC2;
    /** Jumbo payload lengths above this do not fit {@link Packet#ipBytes}; tshark rejects them too. */
    private static final long MAX_JUMBO = Integer.MAX_VALUE - 40;

    private Ipv6Decoder() {
    }

    static DecodeStatus decode(Cursor c, int ip, Packet out) {
        if (!c.has(ip, 1)) {
            return Ipv4Decoder.fail(c, MalformedReason.IP_TRUNCATED, ip);
        }
        byte[] b = c.data;
        if (u8(b, ip) >> 4 != 6) {
            return Ipv4Decoder.fail(c, MalformedReason.IP_INVALID, ip);
        }
        if (!c.has(ip, 40)) {
            return Ipv4Decoder.fail(c, MalformedReason.IP_TRUNCATED, ip);
        }
        int payloadLength = u16(b, ip + 4);
        int next = u8(b, ip + 6);
        long length = 40L + payloadLength;
        if (payloadLength == 0) {
            long jumbo = next == HOP_BY_HOP ? jumboLength(c, ip + 40) : 0;
            if (jumbo > MAX_JUMBO) {
                return Ipv4Decoder.fail(c, MalformedReason.IP_INVALID, ip + 40);
            }
            if (jumbo > 0) {
                length = 40 + jumbo;
            } else if (isExtension(next)) {
                return Ipv4Decoder.fail(c, MalformedReason.IP_INVALID, ip + 4);
            } else {
                length = Math.max(c.reportedFrom(ip), 40);
            }
        }
        int datagramEnd = (int) Math.min(ip + length, Integer.MAX_VALUE);
        out.ipVersion = 6;
        out.ipBytes = (int) Math.min(length, Integer.MAX_VALUE);
        out.srcHi = u64(b, ip + 8);
        out.srcLo = u64(b, ip + 16);
        out.dstHi = u64(b, ip + 24);
        out.dstLo = u64(b, ip + 32);
        int q = ip + 40;
        while (isExtension(next)) {
            int headerLength = extensionLength(c, next, q);
            if ((long) q + headerLength > datagramEnd) {
                return invalid(c, out, MalformedReason.IP_INVALID, q);
            }
            if (!c.has(q, headerLength)) {
                return invalid(c, out, MalformedReason.IP_TRUNCATED, q);
            }
            if (next == FRAGMENT) {
                fragment(b, q, out);
            }
            next = u8(b, q);
            q += headerLength;
            if (out.fragmentOffset != 0) {
                break; // a later fragment: what follows is data, not headers
            }
        }
        out.protocol = next;
        if (out.fragmentOffset == 0) {
            TransportDecoder.decode(c, next, q, datagramEnd, out);
        }
        return DecodeStatus.IP;
    }

    private static boolean isExtension(int next) {
        return next == HOP_BY_HOP || next == ROUTING || next == FRAGMENT || next == AH || next == DESTINATION
                || next == SHIM6;
    }

    /** Length of the extension header at {@code q}; its fixed part when even the length byte is missing. */
    private static int extensionLength(Cursor c, int next, int q) {
        if (next == FRAGMENT) {
            return 8;
        }
        if (!c.has(q, 2)) {
            return 2;
        }
        int units = u8(c.data, q + 1);
        return next == AH ? (units + 2) * 4 : (units + 1) * 8;
    }

    private static void fragment(byte[] b, int q, Packet out) {
        int offsetFlags = u16(b, q + 2);
        out.fragmentOffset = offsetFlags & 0xFFF8;
        out.fragment = out.fragmentOffset != 0 || (offsetFlags & 1) != 0;
        out.fragmentId = u32(b, q + 4);
    }

    private static DecodeStatus invalid(Cursor c, Packet out, MalformedReason reason, int q) {
        out.clear();
        return Ipv4Decoder.fail(c, reason, q);
    }

    /** The jumbo payload length from a hop-by-hop header at {@code q}, 0 when absent or not captured. */
    private static long jumboLength(Cursor c, int q) {
        if (!c.has(q, 2)) {
            return 0;
        }
        int end = q + (u8(c.data, q + 1) + 1) * 8;
        if (!c.has(q, end - q)) {
            return 0;
        }
        for (int o = q + 2; o < end; ) {
            int type = u8(c.data, o);
            if (type == 0) {
                o++;
                continue;
            }
            if (o + 2 > end) {
                return 0;
            }
            int length = u8(c.data, o + 1);
            if (type == JUMBO_OPTION && length == 4 && o + 6 <= end) {
                return u32(c.data, o + 2);
            }
            o += 2 + length;
        }
        return 0;
    }
}
