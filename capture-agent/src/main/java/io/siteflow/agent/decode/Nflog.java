package io.siteflow.agent.decode;

import static io.siteflow.agent.decode.Bytes.u16;
import static io.siteflow.agent.decode.Bytes.u16le;
import static io.siteflow.agent.decode.Bytes.u8;

/**
 * Linux NFLOG (LINKTYPE 239): a 4-byte header whose first byte is the address family, then TLVs
 * (length and type in the capturing host's byte order: little-endian unless the type only makes sense
 * big-endian; each padded to 4 bytes).
 * TLV type 9 holds the packet; family 2 is IPv4, 10 IPv6, anything else is not IP.
 */
final class Nflog {
    private static final int PAYLOAD = 9;
    private static final int MAX_TLVS = 256;

    private Nflog() {
    }

    static int decode(Cursor c, int p) {
        if (!c.has(p, 4)) {
            return c.fail(MalformedReason.LINK_TRUNCATED, p);
        }
        int family = u8(c.data, p);
        int q = p + 4;
        for (int i = 0; i < MAX_TLVS; i++) {
            if (q >= c.end) {
                return Cursor.NOT_IP;
            }
            if (!c.has(q, 4)) {
                return c.fail(MalformedReason.LINK_TRUNCATED, q);
            }
            int length = u16le(c.data, q);
            int type = u16le(c.data, q + 2);
            if ((type & 0x7FFF) > 0xFF) {
                length = u16(c.data, q);
                type = u16(c.data, q + 2);
            }
            if (length < 4) {
                return c.fail(MalformedReason.LINK_INVALID, q);
            }
            if ((type & 0x7FFF) == PAYLOAD) {
                return payload(c, family, q + 4, q + length);
            }
            q += (length + 3) & ~3;
        }
        return c.fail(MalformedReason.LINK_INVALID, q);
    }

    private static int payload(Cursor c, int family, int p, int tlvEnd) {
        c.end = Math.min(c.end, tlvEnd);
        c.wireEnd = Math.min(c.wireEnd, tlvEnd);
        switch (family) {
            case 2:
                return c.network(Cursor.IP, p);
            case 10:
                return c.network(Cursor.IPV6, p);
            default:
                return Cursor.NOT_IP;
        }
    }
}
