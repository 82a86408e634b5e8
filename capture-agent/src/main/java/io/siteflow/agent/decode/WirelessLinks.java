package io.siteflow.agent.decode;

import static io.siteflow.agent.decode.Bytes.i32le;
import static io.siteflow.agent.decode.Bytes.u16le;
import static io.siteflow.agent.decode.Bytes.u8;

/**
 * IEEE 802.11 data frames, bare (LINKTYPE 105) or behind radiotap (127) or PPI (192). Only data subtypes
 * with a body are read (QoS, 4-address and HT-control headers included); protected frames and A-MSDUs
 * are not IP to us. A trailing FCS announced by radiotap or PPI is not part of the frame payload.
 */
final class WirelessLinks {
    private static final int RADIOTAP_FCS = 0x10;
    private static final int RADIOTAP_DATAPAD = 0x20;
    private static final int PPI_80211_COMMON = 2;

    private WirelessLinks() {
    }

    /** An 802.11 MAC header at {@code p}; {@code fcs} trailing bytes; {@code datapad}: header padded to 4. */
    static int ieee80211(Cursor c, int p, int fcs, boolean datapad) {
        if (fcs > 0) {
            c.trailer = fcs;
            c.end = Math.min(c.end, c.wireEnd - fcs);
        }
        if (!c.has(p, 2)) {
            return c.fail(MalformedReason.LINK_TRUNCATED, p);
        }
        int fc0 = u8(c.data, p);
        int fc1 = u8(c.data, p + 1);
        int type = (fc0 >> 2) & 3;
        int subtype = fc0 >> 4;
        if (type != 2 || (subtype & 4) != 0) {
            return Cursor.NOT_IP;
        }
        int header = (fc1 & 3) == 3 ? 30 : 24;
        boolean qos = (subtype & 8) != 0;
        int qosAt = header;
        if (qos) {
            header += (fc1 & 0x80) != 0 ? 6 : 2;
        }
        if (datapad) {
            header = (header + 3) & ~3;
        }
        if (!c.has(p, header)) {
            return c.fail(MalformedReason.LINK_TRUNCATED, p);
        }
        if ((fc1 & 0x40) != 0 || qos && (u8(c.data, p + qosAt) & 0x80) != 0) {
            return Cursor.NOT_IP;
        }
        return EtherTypes.llc(c, p + header);
    }

    /** Radiotap: little-endian length at bytes 2-3; the Flags field says FCS-at-end and data padding. */
    static int radiotap(Cursor c, int p) {
        if (!c.has(p, 8)) {
            return c.fail(MalformedReason.LINK_TRUNCATED, p);
        }
        int length = u16le(c.data, p + 2);
        if (length < 8) {
            return c.fail(MalformedReason.LINK_INVALID, p + 2);
        }
        if (!c.has(p, length)) {
            return c.fail(MalformedReason.LINK_TRUNCATED, p);
        }
        int present = i32le(c.data, p + 4);
        int q = p + 4;
        for (int word = present; (word & 0x8000_0000) != 0; word = i32le(c.data, q)) {
            q += 4;
            if (q + 4 > p + length) {
                return c.fail(MalformedReason.LINK_INVALID, p + 4);
            }
        }
        int flags = 0;
        if ((present & 2) != 0) {
            int at = q + 4 - p;
            if ((present & 1) != 0) {
                at = ((at + 7) & ~7) + 8;
            }
            flags = at < length ? u8(c.data, p + at) : 0;
        }
        int fcs = (flags & RADIOTAP_FCS) != 0 ? 4 : 0;
        return ieee80211(c, p + length, fcs, (flags & RADIOTAP_DATAPAD) != 0);
    }

    /** Per-Packet Information: little-endian header length and DLT; 802.11-Common flags bit 0 = FCS. */
    static int ppi(Cursor c, int p) {
        if (!c.has(p, 8)) {
            return c.fail(MalformedReason.LINK_TRUNCATED, p);
        }
        int length = u16le(c.data, p + 2);
        int dlt = i32le(c.data, p + 4);
        if (length < 8) {
            return c.fail(MalformedReason.LINK_INVALID, p + 2);
        }
        if (!c.has(p, length)) {
            return c.fail(MalformedReason.LINK_TRUNCATED, p);
        }
        int fcs = 0;
        for (int q = p + 8; q + 4 <= p + length; ) {
            int fieldType = u16le(c.data, q);
            int fieldLength = u16le(c.data, q + 2);
            if (fieldType == PPI_80211_COMMON && fieldLength >= 20 && q + 4 + fieldLength <= p + length
                    && (u16le(c.data, q + 12) & 1) != 0) {
                fcs = 4;
            }
            q += 4 + fieldLength;
        }
        if (dlt == 105) {
            return ieee80211(c, p + length, fcs, false);
        }
        return LinkLayers.inner(c, dlt, p + length);
    }
}
