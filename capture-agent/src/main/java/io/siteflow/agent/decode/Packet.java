package io.siteflow.agent.decode;

/**
 * Facts about one decoded packet, written by {@link PacketDecoder} into an instance the caller reuses
 * (no allocation per packet). Fields are public for the hot path; they are valid until the next
 * {@code decode} call. Not thread-safe.
 *
 * <p>Addresses use the two-long form of {@link io.siteflow.model.IpAddresses} (IPv4-mapped for IPv4).
 * Everything describes the <em>outer</em> IP header: tunnels are not followed.
 */
public final class Packet {
    /** 4 or 6. */
    public int ipVersion;
    public long srcHi;
    public long srcLo;
    public long dstHi;
    public long dstLo;
    /**
     * IP bytes of this packet as iftop counts them: the outer IP header plus payload, from the IP total
     * length (IPv4) or 40 + payload length (IPv6; jumbogram length when present). When the length field
     * is 0 (TSO/GSO or BIG TCP super-packets) it is taken from the wire length minus the link header.
     */
    public int ipBytes;
    /** Transport protocol number after IPv6 extension headers (6 TCP, 17 UDP, 1 ICMP, 58 ICMPv6, ...). */
    public int protocol;

    /** True when this packet is one fragment of a fragmented IP datagram. */
    public boolean fragment;
    /** Fragment offset in bytes; 0 for the first fragment. Valid when {@link #fragment}. */
    public int fragmentOffset;
    /** IPv4 identification or IPv6 fragment identification. Valid when {@link #fragment}. */
    public long fragmentId;

    /** True when the transport header was read and {@link #srcPort}/{@link #dstPort} are valid. */
    public boolean hasPorts;
    public int srcPort;
    public int dstPort;
    /** TCP flags (low 9 bits: FIN 0x01, SYN 0x02, RST 0x04, PSH 0x08, ACK 0x10, URG 0x20, ECE, CWR, NS). */
    public int tcpFlags;
    /** TCP sequence number (unsigned 32 bits in a long). */
    public long tcpSeq;
    /** TCP acknowledgement number (unsigned 32 bits in a long). */
    public long tcpAck;
    /** TCP/UDP payload length from the IP lengths (not the captured length); 0 for other protocols. */
    public int payloadLength;
    /**
     * Index of the transport payload in the buffer handed to the decoder (an index into {@code data}, not
     * relative to the packet's offset). Valid when {@link #hasPorts}; may lie past the captured bytes when
     * the snap length cut the TCP options ({@link #payloadCaptured} is then 0).
     */
    public int payloadOffset;
    /** Payload bytes actually captured, from {@link #payloadOffset}; may be less than {@link #payloadLength}. */
    public int payloadCaptured;

    /** Why decoding stopped short, {@link MalformedReason#NONE} when it did not. */
    public MalformedReason malformed = MalformedReason.NONE;
    /** Offset from the start of the packet (not of the buffer) where the problem was found; -1 when none. */
    public int malformedOffset = -1;

    /** Resets every field; called by the decoder at the start of each packet. */
    public void clear() {
        ipVersion = 0;
        srcHi = srcLo = dstHi = dstLo = 0;
        ipBytes = 0;
        protocol = 0;
        fragment = false;
        fragmentOffset = 0;
        fragmentId = 0;
        hasPorts = false;
        srcPort = dstPort = 0;
        tcpFlags = 0;
        tcpSeq = tcpAck = 0;
        payloadLength = 0;
        payloadOffset = 0;
        payloadCaptured = 0;
        malformed = MalformedReason.NONE;
        malformedOffset = -1;
    }
}
