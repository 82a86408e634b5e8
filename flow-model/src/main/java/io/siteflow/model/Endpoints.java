package io.siteflow.model;

import java.util.Objects;

/**
 * The two ends of a flow record: protocol, initiator and responder. Immutable.
 *
 * @param proto   IANA protocol number (6 TCP, 17 UDP, 1 ICMP, 58 ICMPv6, ...)
 * @param src     initiator address, textual (IPv4 dotted quad or compressed IPv6), never null
 * @param srcPort initiator port, 0 for protocols without ports
 * @param dst     responder address, never null
 * @param dstPort responder port, 0 for protocols without ports
 * @throws NullPointerException when {@code src} or {@code dst} is null
 */
public record Endpoints(int proto, String src, int srcPort, String dst, int dstPort) {
    public Endpoints {
        Objects.requireNonNull(src, "src");
        Objects.requireNonNull(dst, "dst");
    }
}
