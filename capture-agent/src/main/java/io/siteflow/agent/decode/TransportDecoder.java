package io.siteflow.agent.decode;

import static io.siteflow.agent.decode.Bytes.u16;
import static io.siteflow.agent.decode.Bytes.u32;
import static io.siteflow.agent.decode.Bytes.u8;

/**
 * TCP, UDP, UDP-Lite and SCTP headers of a first (or only) fragment. Lengths come from the IP header
 * ({@code ipEnd}), never from the captured length. A fixed header that was not captured clears
 * {@link Packet#hasPorts} and records {@link MalformedReason#TRANSPORT_TRUNCATED}; TCP options cut short by
 * the snap length keep the ports (only the payload is then not captured).
 */
final class TransportDecoder {
    static final int ICMP = 1;
    static final int TCP = 6;
    static final int UDP = 17;
    static final int SCTP = 132;
    static final int UDP_LITE = 136;

    private TransportDecoder() {
    }

    /** Decodes the transport header at {@code p}; the IP datagram ends at {@code ipEnd}. */
    static void decode(Cursor c, int protocol, int p, int ipEnd, Packet out) {
        switch (protocol) {
            case TCP:
                tcp(c, p, ipEnd, out);
                break;
            case UDP:
            case UDP_LITE:
                ports(c, p, ipEnd, 8, out);
                break;
            case SCTP:
                ports(c, p, ipEnd, 12, out);
                break;
            default:
                break;
        }
    }

    private static void tcp(Cursor c, int p, int ipEnd, Packet out) {
        if (!header(c, p, ipEnd, 20, out)) {
            return;
        }
        byte[] b = c.data;
        int dataOffset = (u8(b, p + 12) >> 4) * 4;
        if (dataOffset < 20 || dataOffset > ipEnd - p) {
            malformed(c, out, MalformedReason.TRANSPORT_INVALID, p + 12);
            return;
        }
        out.tcpSeq = u32(b, p + 4);
        out.tcpAck = u32(b, p + 8);
        out.tcpFlags = (u8(b, p + 12) & 1) << 8 | u8(b, p + 13);
        fill(c, p, ipEnd, dataOffset, out);
    }

    private static void ports(Cursor c, int p, int ipEnd, int headerLength, Packet out) {
        if (header(c, p, ipEnd, headerLength, out)) {
            fill(c, p, ipEnd, headerLength, out);
        }
    }

    /** Checks that the fixed header was captured and fits in the IP datagram. */
    private static boolean header(Cursor c, int p, int ipEnd, int length, Packet out) {
        if (!c.has(p, length)) {
            malformed(c, out, MalformedReason.TRANSPORT_TRUNCATED, p);
            return false;
        }
        if (ipEnd - p < length) {
            malformed(c, out, MalformedReason.TRANSPORT_INVALID, p);
            return false;
        }
        return true;
    }

    private static void fill(Cursor c, int p, int ipEnd, int headerLength, Packet out) {
        out.hasPorts = true;
        out.srcPort = u16(c.data, p);
        out.dstPort = u16(c.data, p + 2);
        out.payloadOffset = p + headerLength;
        out.payloadLength = ipEnd - out.payloadOffset;
        int captured = Math.min(c.end, ipEnd) - out.payloadOffset;
        out.payloadCaptured = Math.max(0, Math.min(captured, out.payloadLength));
    }

    private static void malformed(Cursor c, Packet out, MalformedReason reason, int at) {
        out.malformed = reason;
        out.malformedOffset = at - c.start;
    }
}
