package io.siteflow.agent.decode;

import static io.siteflow.agent.decode.Bytes.u16;
import static io.siteflow.agent.decode.Bytes.u8;

/**
 * Headers between the Ethernet header and the network or inner frame: MPLS label stacks, Cisco FabricPath,
 * NSH and PPPoE sessions. Each returns the next ethertype (or one of {@link EtherTypes}' pseudo types) and
 * sets {@code c.pos} to where it starts.
 */
final class ShimHeaders {
    private ShimHeaders() {
    }

    /**
     * MPLS labels down to the bottom-of-stack bit; then the first nibble: 4 IPv4, 6 IPv6, 0 a pseudowire
     * control word and an Ethernet frame (Ethernet over MPLS), anything else not IP.
     */
    static int mpls(Cursor c, int p) {
        byte[] b = c.data;
        for (int i = 0; ; i++) {
            if (!c.has(p, 4)) {
                return EtherTypes.truncated(c, p);
            }
            boolean bottom = (b[p + 2] & 1) != 0;
            p += 4;
            if (bottom) {
                break;
            }
            if (i == EtherTypes.MAX_HEADERS) {
                c.fail(MalformedReason.LINK_INVALID, p);
                return EtherTypes.FAILED;
            }
        }
        if (!c.has(p, 1)) {
            return EtherTypes.truncated(c, p);
        }
        c.pos = p;
        switch (u8(b, p) >> 4) {
            case 4:
                return EtherTypes.IPV4;
            case 6:
                return EtherTypes.IPV6;
            case 0:
                if (!c.has(p, 4)) {
                    return EtherTypes.truncated(c, p);
                }
                c.pos = p + 4;
                return EtherTypes.ETHERNET;
            default:
                return EtherTypes.NOT_IP;
        }
    }

    /**
     * Cisco FabricPath: FTag/TTL, then the original Ethernet frame, whose last 4 bytes are its FCS (tshark
     * decodes it so: an inner IPv6 header reaching into those bytes is not counted).
     */
    static int fabricPath(Cursor c, int p) {
        if (!c.has(p, 2)) {
            return EtherTypes.truncated(c, p);
        }
        c.wireEnd -= 4;
        c.end = Math.min(c.end, c.wireEnd);
        c.pos = p + 2;
        return EtherTypes.ETHERNET;
    }

    /** RFC 8300 Network Service Header: length in 4-byte words, next protocol 1 IPv4, 2 IPv6, 3 Ethernet. */
    static int nsh(Cursor c, int p) {
        if (!c.has(p, 8)) {
            return EtherTypes.truncated(c, p);
        }
        int length = (u16(c.data, p) & 0x3F) * 4;
        if (length < 8) {
            c.fail(MalformedReason.LINK_INVALID, p);
            return EtherTypes.FAILED;
        }
        if (!c.has(p, length)) {
            return EtherTypes.truncated(c, p);
        }
        c.pos = p + length;
        switch (u8(c.data, p + 3)) {
            case 1:
                return EtherTypes.IPV4;
            case 2:
                return EtherTypes.IPV6;
            case 3:
                return EtherTypes.ETHERNET;
            case 5:
                return 0x8847;
            default:
                return EtherTypes.NOT_IP;
        }
    }

    static int pppoe(Cursor c, int p) {
        if (!c.has(p, 8)) {
            return EtherTypes.truncated(c, p);
        }
        c.pos = p + 8;
        return EtherTypes.pppProtocol(u16(c.data, p + 6));
    }
}
