package io.siteflow.agent.decode;

/**
 * Decodes raw packet bytes into {@link Packet} facts by hand, without allocating per packet. Malformed
 * input is a {@link DecodeStatus#MALFORMED} result with a {@link MalformedReason}, never an exception.
 * One instance per capture thread; not thread-safe.
 */
public final class PacketDecoder {

    /**
     * Decodes one packet.
     *
     * @param linkType   LINKTYPE_ number (low 16 bits)
     * @param data       buffer
     * @param offset     start of the packet in {@code data}
     * @param capLen     captured bytes
     * @param wireLen    wire length (pcap orig_len)
     * @param out        facts, cleared first
     * @return what was decoded; {@code out} is filled for {@link DecodeStatus#IP}
     */
    public DecodeStatus decode(int linkType, byte[] data, int offset, int capLen, int wireLen, Packet out) {
        throw new UnsupportedOperationException("not written yet");
    }

    /** True when {@link #decode} handles this link type. */
    public static boolean supports(int linkType) {
        return false;
    }
}
