package io.siteflow.agent.capture;

/**
 * Receives packets from a {@link PacketSource}, one call per packet, on the source's thread.
 *
 * <p>The bytes are only valid during the call: the source reuses its buffers. {@code data[offset ..
 * offset + capturedLength)} holds the captured bytes starting at the link-layer header; {@code
 * wireLength} is the length of the packet on the wire (pcap {@code orig_len}), which can be larger
 * than the captured length. Implementations must not block for long: a live source drops packets in
 * the kernel while they do.
 */
@FunctionalInterface
public interface PacketHandler {

    /**
     * @param timestampNanos packet time, nanoseconds since the epoch
     * @param linkType       the LINKTYPE_ number of this packet's link layer (low 16 bits of the pcap field)
     * @param data           buffer holding the packet
     * @param offset         where the packet starts in {@code data}
     * @param capturedLength bytes captured
     * @param wireLength     bytes on the wire
     */
    void onPacket(long timestampNanos, int linkType, byte[] data, int offset, int capturedLength, int wireLength);

    /**
     * Told by a source that runs the handler on its capture thread itself (a live TPACKET_V3 ring) when no packet
     * came for its read timeout, so that flow timeouts still fire on an idle interface. Does nothing unless
     * overridden.
     *
     * @param wallClockNanos the host clock, nanoseconds since the epoch
     */
    default void onIdle(long wallClockNanos) {
    }
}
