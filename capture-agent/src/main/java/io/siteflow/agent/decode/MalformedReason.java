package io.siteflow.agent.decode;

/** Why a packet, or its transport header, could not be decoded. Counted per reason in metrics. */
public enum MalformedReason {
    NONE,
    /** The captured bytes end inside a link-layer header (Ethernet, VLAN tags, SLL, radiotap, ...). */
    LINK_TRUNCATED,
    /** A link-layer length or header field that makes no sense. */
    LINK_INVALID,
    /** The captured bytes end inside the IP header (or its IPv6 extension headers). */
    IP_TRUNCATED,
    /** IP version, header length or total length that makes no sense. */
    IP_INVALID,
    /** The IP packet was counted, but its TCP/UDP header was cut short: counted as an IP-pair flow. */
    TRANSPORT_TRUNCATED,
    /** The IP packet was counted, but its TCP/UDP header is invalid (e.g. TCP data offset below 5). */
    TRANSPORT_INVALID
}
