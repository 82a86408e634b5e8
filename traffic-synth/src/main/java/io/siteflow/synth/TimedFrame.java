package io.siteflow.synth;

/**
 * One frame as it passes the capture point: epoch nanoseconds and the Ethernet frame bytes (not copied;
 * do not modify them).
 */
public record TimedFrame(long tsNanos, byte[] frame) {
    /** IP header + payload bytes of the frame. */
    public int ipBytes() {
        return Frames.ipBytes(frame);
    }
}
