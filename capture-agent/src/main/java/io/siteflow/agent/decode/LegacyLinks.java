package io.siteflow.agent.decode;

import static io.siteflow.agent.decode.Bytes.u16;
import static io.siteflow.agent.decode.Bytes.u8;

/** Older link types still found in captures: FDDI (10), Frame Relay (107) and Solaris ipnet (226). */
final class LegacyLinks {
    private static final int NLPID_SNAP = 0x80;
    private static final int NLPID_IPV4 = 0xCC;
    private static final int NLPID_IPV6 = 0x8E;

    private LegacyLinks() {
    }

    /** FDDI: frame control and two addresses (13 bytes), then 802.2 LLC. */
    static int fddi(Cursor c, int p) {
        if (!c.has(p, 13)) {
            return c.fail(MalformedReason.LINK_TRUNCATED, p);
        }
        return EtherTypes.llc(c, p + 13);
    }

    /** Solaris ipnet: 24-byte header whose second byte is the address family (2 IPv4, 26 IPv6). */
    static int ipnet(Cursor c, int p) {
        if (!c.has(p, 24)) {
            return c.fail(MalformedReason.LINK_TRUNCATED, p);
        }
        switch (u8(c.data, p + 1)) {
            case 2:
                return c.network(Cursor.IP, p + 24);
            case 26:
                return c.network(Cursor.IPV6, p + 24);
            default:
                return Cursor.NOT_IP;
        }
    }

    /**
     * Frame Relay: a Q.922 address of 2 to 4 bytes (last byte has the EA bit), then either RFC 2427
     * (UI control 0x03, optional pad, NLPID) or Cisco's encapsulation (an ethertype).
     */
    static int frameRelay(Cursor c, int p) {
        int q = p;
        while (q - p < 4 && c.has(q, 1) && (u8(c.data, q) & 1) == 0) {
            q++;
        }
        q++;
        if (q - p < 2 || !c.has(q, 2)) {
            return c.fail(MalformedReason.LINK_TRUNCATED, p);
        }
        if (u8(c.data, q) != 0x03) {
            return EtherTypes.dispatch(c, u16(c.data, q), q + 2);
        }
        q++;
        if (u8(c.data, q) == 0 && c.has(q, 2)) {
            q++;
        }
        switch (u8(c.data, q)) {
            case NLPID_IPV4:
                return c.network(Cursor.IP, q + 1);
            case NLPID_IPV6:
                return c.network(Cursor.IPV6, q + 1);
            case NLPID_SNAP:
                if (!c.has(q, 6)) {
                    return c.fail(MalformedReason.LINK_TRUNCATED, q);
                }
                return EtherTypes.dispatch(c, u16(c.data, q + 4), q + 6);
            default:
                return Cursor.NOT_IP;
        }
    }
}
