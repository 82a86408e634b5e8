package io.siteflow.agent.decode;

import static io.siteflow.agent.decode.Bytes.i32;
import static io.siteflow.agent.decode.Bytes.u16;
import static io.siteflow.agent.decode.Bytes.u8;

import io.siteflow.model.IpAddresses;

/**
 * The outer IPv4 header, counted exactly when tshark's {@code ip} tap would count it: version 4 (an IPv6
 * header behind an IPv4 link type goes to {@link Ipv6Decoder}), header length at least 20 and fully
 * captured, total length not below the header length (0 means TSO/GSO: the reported frame length is used).
 * A loose or strict source route option whose pointer is still valid makes its last address the
 * destination, as in tshark.
 */
final class Ipv4Decoder {
    private static final int LSRR = 0x83;
    private static final int SSRR = 0x89;

    private Ipv4Decoder() {
    }

    static DecodeStatus decode(Cursor c, int ip, Packet out) {
        if (!c.has(ip, 1)) {
            return fail(c, MalformedReason.IP_TRUNCATED, ip);
        }
        byte[] b = c.data;
        int version = u8(b, ip) >> 4;
        if (version == 6) {
            return Ipv6Decoder.decode(c, ip, out);
        }
        if (version != 4) {
            return fail(c, MalformedReason.IP_INVALID, ip);
        }
        int headerLength = (u8(b, ip) & 0x0F) * 4;
        if (headerLength < 20) {
            return fail(c, MalformedReason.IP_INVALID, ip);
        }
        if (!c.has(ip, 4)) {
            return fail(c, MalformedReason.IP_TRUNCATED, ip);
        }
        int totalLength = u16(b, ip + 2);
        if (totalLength == 0) {
            totalLength = c.reportedFrom(ip);
        } else if (totalLength < headerLength) {
            return fail(c, MalformedReason.IP_INVALID, ip + 2);
        }
        if (!c.has(ip, headerLength)) {
            return fail(c, MalformedReason.IP_TRUNCATED, ip);
        }
        out.ipVersion = 4;
        out.ipBytes = totalLength;
        out.protocol = u8(b, ip + 9);
        out.srcHi = 0;
        out.srcLo = IpAddresses.v4Lo(i32(b, ip + 12));
        out.dstHi = 0;
        out.dstLo = IpAddresses.v4Lo(i32(b, ip + 16 + routedDestination(b, ip + 20, headerLength - 20)));
        int flagsOffset = u16(b, ip + 6);
        out.fragmentOffset = (flagsOffset & 0x1FFF) * 8;
        out.fragment = (flagsOffset & 0x2000) != 0 || out.fragmentOffset != 0;
        out.fragmentId = out.fragment ? u16(b, ip + 4) : 0;
        if (out.fragmentOffset == 0) {
            TransportDecoder.decode(c, out.protocol, ip + headerLength, ip + totalLength, out);
        }
        return DecodeStatus.IP;
    }

    /**
     * Distance from the header's destination field to the final destination of a source route option
     * still in progress, 0 when there is none (tshark's {@code get_dst_offset}).
     */
    static int routedDestination(byte[] b, int options, int length) {
        int q = options;
        int remaining = length;
        while (remaining > 0) {
            int option = u8(b, q);
            remaining--;
            if (option == 0) {
                return 0;
            }
            if (option == 1) {
                q++;
                continue;
            }
            if (remaining == 0) {
                return 0;
            }
            int optionLength = u8(b, q + 1);
            remaining--;
            if (optionLength < 2 || optionLength - 2 > remaining) {
                return 0;
            }
            if (option == LSRR || option == SSRR) {
                int pointer = optionLength > 2 ? u8(b, q + 2) : 0;
                if (pointer < 4 || (pointer & 3) != 0 || pointer > optionLength) {
                    return 0;
                }
                return q - options + optionLength;
            }
            q += optionLength;
            remaining -= optionLength - 2;
        }
        return 0;
    }

    static DecodeStatus fail(Cursor c, MalformedReason reason, int at) {
        c.fail(reason, at);
        return DecodeStatus.MALFORMED;
    }
}
