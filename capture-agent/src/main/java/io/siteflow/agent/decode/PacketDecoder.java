package io.siteflow.agent.decode;

/**
 * Decodes raw packet bytes into {@link Packet} facts by hand, without allocating per packet. Malformed
 * input is a {@link DecodeStatus#MALFORMED} result with a {@link MalformedReason}, never an exception:
 * every read is bounded by the captured length.
 *
 * <p>Only the outer IP header is decoded (tunnels are not followed; ICMP errors' quoted headers are
 * ignored). A packet is {@link DecodeStatus#IP} exactly when tshark would count it in its IPv4/IPv6
 * conversation tables; the rules and the deliberate differences are in {@code capture-agent/docs/decode.md}.
 * Link types: see {@link #supports}.
 *
 * <p>One instance per capture thread; not thread-safe.
 */
public final class PacketDecoder {
    private final Cursor cursor = new Cursor();

    /**
     * Decodes one packet.
     *
     * @param linkType   LINKTYPE_ number (only the low 16 bits are used)
     * @param data       buffer; {@code null} or bounds outside it give {@link DecodeStatus#MALFORMED}
     * @param offset     start of the packet in {@code data}
     * @param capLen     captured bytes (bounded to the buffer)
     * @param wireLen    wire length (pcap orig_len); used only for TSO/GSO lengths
     * @param out        facts, cleared first; {@link Packet#payloadOffset} is an index into {@code data}
     * @return what was decoded; {@code out} is filled for {@link DecodeStatus#IP}, and holds the reason
     *         and offset (from {@code offset}) for {@link DecodeStatus#MALFORMED}
     */
    public DecodeStatus decode(int linkType, byte[] data, int offset, int capLen, int wireLen, Packet out) {
        out.clear();
        int type = linkType & 0xFFFF;
        if (!supports(type)) {
            return DecodeStatus.UNSUPPORTED_LINK;
        }
        if (data == null || offset < 0 || offset > data.length || capLen < 0) {
            out.malformed = MalformedReason.LINK_TRUNCATED;
            out.malformedOffset = 0;
            return DecodeStatus.MALFORMED;
        }
        Cursor c = cursor;
        c.reset(data, offset, Math.min(capLen, data.length - offset), wireLen);
        int network = LinkLayers.decode(c, type, offset);
        DecodeStatus status;
        switch (network) {
            case Cursor.IP:
                status = Ipv4Decoder.decode(c, c.pos, out);
                break;
            case Cursor.IPV6:
                status = Ipv6Decoder.decode(c, c.pos, out);
                break;
            case Cursor.NOT_IP:
                return DecodeStatus.NOT_IP;
            case Cursor.UNSUPPORTED:
                return DecodeStatus.UNSUPPORTED_LINK;
            default:
                status = DecodeStatus.MALFORMED;
        }
        if (status == DecodeStatus.MALFORMED) {
            out.clear();
            out.malformed = c.reason;
            out.malformedOffset = c.reasonAt;
        }
        return status;
    }

    /**
     * True when {@link #decode} handles this link type: Ethernet (1), BSD NULL (0) and LOOP (108), raw IP
     * (12, 14, 101, 228, 229), PPP (9, 50), Cisco HDLC (104), Linux SLL (113) and SLL2 (276), NFLOG (239),
     * PKTAP (258), IPoIB (242), 802.11 (105), radiotap (127) and PPI (192). Only the low 16 bits count.
     */
    public static boolean supports(int linkType) {
        return LinkLayers.supports(linkType & 0xFFFF);
    }
}
