package io.siteflow.agent.decode;

import static io.siteflow.agent.decode.Bytes.i32le;
import static io.siteflow.agent.decode.Bytes.u16;
import static io.siteflow.agent.decode.Bytes.u8;

/**
 * Finds the network header behind each supported LINKTYPE. Returns one of the {@link Cursor} kinds and
 * leaves {@code c.pos} at the network header. Wireless link types live in {@link WirelessLinks}.
 */
final class LinkLayers {
    private static final int MAX_NESTING = 2;

    private LinkLayers() {
    }

    static boolean supports(int linkType) {
        switch (linkType) {
            case 0: case 1: case 9: case 10: case 12: case 14: case 50: case 101: case 104: case 105:
            case 107: case 108: case 113: case 127: case 149: case 192: case 226: case 228: case 229:
            case 239: case 242: case 258: case 276:
                return true;
            default:
                return false;
        }
    }

    /** Decodes the link header of {@code linkType} at {@code p}. */
    static int decode(Cursor c, int linkType, int p) {
        switch (linkType) {
            case 1:
                return EtherTypes.ethernet(c, p);
            case 0:
            case 108:
                return nullLoopback(c, p);
            case 12:
            case 14:
            case 101:
            case 228:
                return c.network(Cursor.IP, p);
            case 229:
                return c.network(Cursor.IPV6, p);
            case 9:
            case 50:
                return ppp(c, p);
            case 104:
                return fixed(c, p, 4, 2);
            case 113:
                return cooked(c, p, 16, 14, 2);
            case 276:
                return cooked(c, p, 20, 0, 8);
            case 242:
                return fixed(c, p, 44, 40);
            case 239:
                return Nflog.decode(c, p);
            case 149:
            case 258:
                return pktap(c, p);
            case 10:
                return LegacyLinks.fddi(c, p);
            case 107:
                return LegacyLinks.frameRelay(c, p);
            case 226:
                return LegacyLinks.ipnet(c, p);
            case 105:
                return WirelessLinks.ieee80211(c, p, 0, false);
            case 127:
                return WirelessLinks.radiotap(c, p);
            case 192:
                return WirelessLinks.ppi(c, p);
            default:
                return Cursor.UNSUPPORTED;
        }
    }

    /** BSD NULL (host byte order, either accepted) and OpenBSD LOOP (network order) AF headers. */
    private static int nullLoopback(Cursor c, int p) {
        if (!c.has(p, 4)) {
            return c.fail(MalformedReason.LINK_TRUNCATED, p);
        }
        if (u16(c.data, p) == 0xFF03) {
            return ppp(c, p);
        }
        int family = i32le(c.data, p);
        if ((family & 0xFFFF_0000) != 0) {
            family = Integer.reverseBytes(family);
        }
        switch (family) {
            case 2:
                return c.network(Cursor.IP, p + 4);
            case 24:
            case 28:
            case 30:
                return c.network(Cursor.IPV6, p + 4);
            default:
                return family > 1500 && family <= 0xFFFF ? EtherTypes.dispatch(c, family, p + 4) : Cursor.NOT_IP;
        }
    }

    /** PPP with or without the HDLC address/control bytes, protocol field maybe compressed to one byte. */
    private static int ppp(Cursor c, int p) {
        byte[] b = c.data;
        if (c.has(p, 2) && u8(b, p) == 0xFF && u8(b, p + 1) == 0x03) {
            p += 2;
        }
        if (!c.has(p, 1)) {
            return c.fail(MalformedReason.LINK_TRUNCATED, p);
        }
        if ((b[p] & 1) != 0) {
            return EtherTypes.dispatch(c, EtherTypes.pppProtocol(u8(b, p)), p + 1);
        }
        if (!c.has(p, 2)) {
            return c.fail(MalformedReason.LINK_TRUNCATED, p);
        }
        return EtherTypes.dispatch(c, EtherTypes.pppProtocol(u16(b, p)), p + 2);
    }

    /**
     * A fixed header of {@code len} bytes holding an ethertype at {@code typeAt}: Cisco HDLC, and IPoIB
     * (RFC 4391: 40 bytes of hardware addresses, then the type and 2 reserved bytes).
     */
    private static int fixed(Cursor c, int p, int len, int typeAt) {
        if (!c.has(p, len)) {
            return c.fail(MalformedReason.LINK_TRUNCATED, p);
        }
        return EtherTypes.dispatch(c, u16(c.data, p + typeAt), p + len);
    }

    /** Linux cooked capture v1/v2: protocol field is an ethertype, or 4 for 802.2 LLC; netlink is not IP. */
    private static int cooked(Cursor c, int p, int len, int protocolAt, int hatypeAt) {
        if (!c.has(p, len)) {
            return c.fail(MalformedReason.LINK_TRUNCATED, p);
        }
        int protocol = u16(c.data, p + protocolAt);
        int hatype = u16(c.data, p + hatypeAt);
        if (hatype == 824) {
            return Cursor.NOT_IP;
        }
        if (protocol == 4) {
            return EtherTypes.llc(c, p + len);
        }
        return protocol > 1500 ? EtherTypes.dispatch(c, protocol, p + len) : Cursor.NOT_IP;
    }

    /**
     * Apple PKTAP (also written as DLT_USER2, 149, by macOS): a little-endian header length, record type and
     * the DLT of the packet behind it.
     */
    private static int pktap(Cursor c, int p) {
        if (!c.has(p, 12)) {
            return c.fail(MalformedReason.LINK_TRUNCATED, p);
        }
        int headerLength = i32le(c.data, p);
        int recordType = i32le(c.data, p + 4);
        int dlt = i32le(c.data, p + 8);
        if (headerLength < 12 || headerLength > c.end - p) {
            return c.fail(MalformedReason.LINK_INVALID, p);
        }
        if (recordType != 1) {
            return Cursor.NOT_IP;
        }
        return inner(c, dlt, p + headerLength);
    }

    /** Decodes a link type wrapped in another one (PKTAP, PPI), at most {@link #MAX_NESTING} deep. */
    static int inner(Cursor c, int dlt, int p) {
        if (c.nesting >= MAX_NESTING || dlt < 0 || dlt > 0xFFFF) {
            return c.fail(MalformedReason.LINK_INVALID, p);
        }
        c.nesting++;
        return decode(c, dlt, p);
    }
}
