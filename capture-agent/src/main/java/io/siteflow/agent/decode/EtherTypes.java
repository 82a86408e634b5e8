package io.siteflow.agent.decode;

import static io.siteflow.agent.decode.Bytes.u16;
import static io.siteflow.agent.decode.Bytes.u24;
import static io.siteflow.agent.decode.Bytes.u8;

/**
 * Ethernet and everything reached through an ethertype: 802.1Q/802.1ad/0x9100 tags to any depth, 802.1ah
 * PBB, VN-Tag, E-Tag, Cisco MetaData (SGT), and, through {@link ShimHeaders}, Cisco FabricPath, MPLS label
 * stacks (Ethernet over MPLS behind a control word), NSH and PPPoE sessions; 802.2 LLC/SNAP. Iterative,
 * bounded to {@link #MAX_HEADERS} headers so a crafted frame cannot loop.
 */
final class EtherTypes {
    static final int MAX_HEADERS = 64;

    static final int IPV4 = 0x0800;
    static final int IPV6 = 0x86DD;
    /** Pseudo types above the 16-bit range: what to read next at the current position, or the outcome. */
    static final int ETHERNET = 0x1_0000;
    private static final int LLC = 0x1_0001;
    static final int NOT_IP = 0x1_0002;
    static final int FAILED = 0x1_0003;

    private EtherTypes() {
    }

    /** An Ethernet II or 802.3 header starts at {@code p}. */
    static int ethernet(Cursor c, int p) {
        return dispatch(c, ETHERNET, p);
    }

    /** An 802.2 LLC header (with SNAP, maybe) starts at {@code p}. */
    static int llc(Cursor c, int p) {
        return dispatch(c, LLC, p);
    }

    /** {@code type} was read from an ethertype field; the header it names starts at {@code p}. */
    static int dispatch(Cursor c, int type, int p) {
        for (int i = 0; i < MAX_HEADERS; i++) {
            switch (type) {
                case IPV4:
                    return c.network(Cursor.IP, p);
                case IPV6:
                    return c.network(Cursor.IPV6, p);
                case NOT_IP:
                    return Cursor.NOT_IP;
                case FAILED:
                    return Cursor.MALFORMED;
                default:
                    type = step(c, type, p);
                    p = c.pos;
            }
        }
        return c.fail(MalformedReason.LINK_INVALID, p);
    }

    /** Reads the header named by {@code type} at {@code p}; returns the next type and sets {@code c.pos}. */
    private static int step(Cursor c, int type, int p) {
        switch (type) {
            case ETHERNET:
                return skip(c, p, 14, 12, true);
            case 0x8100:
            case 0x88A8:
            case 0x9100:
                return skip(c, p, 4, 2, true);
            case 0x88E7:
                return skip(c, p, 18, 16, false);
            case 0x8926:
                return skip(c, p, 6, 4, false);
            case 0x893F:
            case 0x8909:
                return skip(c, p, 8, 6, false);
            case 0x8903:
                return ShimHeaders.fabricPath(c, p);
            case 0x8847:
            case 0x8848:
                return ShimHeaders.mpls(c, p);
            case 0x8864:
                return ShimHeaders.pppoe(c, p);
            case 0x894F:
                return ShimHeaders.nsh(c, p);
            case LLC:
                return snap(c, p);
            default:
                return NOT_IP;
        }
    }

    /** A header of {@code len} bytes whose next ethertype sits at {@code typeAt}. */
    private static int skip(Cursor c, int p, int len, int typeAt, boolean lengthAllowed) {
        if (!c.has(p, len)) {
            return truncated(c, p);
        }
        int next = u16(c.data, p + typeAt);
        c.pos = p + len;
        if (next > 1500) {
            return next;
        }
        if (!lengthAllowed) {
            return NOT_IP;
        }
        limit(c, c.pos + next);
        return LLC;
    }

    /** An 802.3 length field: the payload ends there (padding and trailers are not part of it). */
    private static void limit(Cursor c, int payloadEnd) {
        c.end = Math.min(c.end, payloadEnd);
        c.wireEnd = Math.min(c.wireEnd, payloadEnd);
    }





    /** Maps a PPP protocol number to the ethertype that carries the same payload. */
    static int pppProtocol(int protocol) {
        switch (protocol) {
            case 0x0021:
            case 0x0800:
                return IPV4;
            case 0x0057:
                return IPV6;
            case 0x0281:
            case 0x0283:
                return 0x8847;
            default:
                return NOT_IP;
        }
    }

    private static int snap(Cursor c, int p) {
        if (!c.has(p, 3)) {
            return truncated(c, p);
        }
        byte[] b = c.data;
        int dsap = u8(b, p);
        int ssap = u8(b, p + 1);
        int control = u8(b, p + 2);
        if (dsap == 0x06 && ssap == 0x06 && control == 0x03) {
            c.pos = p + 3;
            return IPV4;
        }
        if (dsap != 0xAA || ssap != 0xAA || control != 0x03) {
            return NOT_IP;
        }
        if (!c.has(p, 8)) {
            return truncated(c, p);
        }
        int oui = u24(b, p + 3);
        int pid = u16(b, p + 6);
        c.pos = p + 8;
        return (oui == 0 || oui == 0xF8) && pid > 1500 ? pid : NOT_IP;
    }

    static int truncated(Cursor c, int p) {
        c.fail(MalformedReason.LINK_TRUNCATED, p);
        return FAILED;
    }
}
