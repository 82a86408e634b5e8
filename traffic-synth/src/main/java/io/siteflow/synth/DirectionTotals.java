package io.siteflow.synth;

/**
 * What one direction of a conversation put on the wire: IP bytes (IP header + payload), packets and
 * Ethernet frame bytes. Mutable counter; not thread-safe.
 */
public final class DirectionTotals {
    private long ipBytes;
    private long packets;
    private long frameBytes;

    void add(byte[] frame) {
        ipBytes += Frames.ipBytes(frame);
        packets++;
        frameBytes += frame.length;
    }

    public long ipBytes() {
        return ipBytes;
    }

    public long packets() {
        return packets;
    }

    public long frameBytes() {
        return frameBytes;
    }
}
