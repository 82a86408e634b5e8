package io.siteflow.agent.decode;

/** What {@link PacketDecoder#decode} made of a packet. */
public enum DecodeStatus {
    /** An IP packet: the outer IP header was read; {@link Packet} holds its facts. */
    IP,
    /** A well-formed frame that carries no IP (ARP, STP, LLDP, ...): not counted in flows. */
    NOT_IP,
    /** A link type the decoder does not handle: reported once per file. */
    UNSUPPORTED_LINK,
    /** A frame whose headers are cut short or inconsistent before the IP header could be read. */
    MALFORMED
}
