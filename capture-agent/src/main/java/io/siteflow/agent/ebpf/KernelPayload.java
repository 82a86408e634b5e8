package io.siteflow.agent.ebpf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One record of the program's {@code payloads} ring buffer ({@code struct payload_hdr}, then for a payload segment
 * the frame's first bytes, in {@code src/main/bpf/flows.bpf.c}): a payload segment of a flow user space has not
 * decided yet (for the signatures and SNI), or a change of direction of a TCP flow's payload (for DB call timing).
 * Times are the kernel's monotonic clock.
 *
 * @param frame    the frame's first bytes from the Ethernet header (what a capture with that snap length holds), or
 *                 null for a direction change
 * @param fromB    the segment went from b to a
 * @param runStart the segment starts a run: its direction's sequence end advanced and the other direction's payload
 *                 came last
 * @param prevNs   for a run start, the time of the other direction's last advancing segment; else 0
 */
record KernelPayload(long aHi, long aLo, long bHi, long bLo, int aPort, int bPort, int proto, long tsNs, long prevNs,
        int wireLen, byte[] frame, boolean fromB, boolean runStart) {

    /** {@code sizeof(struct payload_hdr)}. */
    static final int HEADER_SIZE = 64;
    /** {@code FRAME_MAX}: the most frame bytes a payload record carries. */
    static final int FRAME_MAX = 512;
    /** {@code PAYLOAD_BUDGET}: payload records per flow and direction. */
    static final int BUDGET = 4;
    private static final int KIND_PAYLOAD = 1;

    /**
     * Decodes a record of {@code size} bytes from {@code record}'s position (native byte order).
     *
     * @return the record, or null when it is shorter than its header or its frame bytes say
     */
    static KernelPayload decode(ByteBuffer record, int size) {
        if (size < HEADER_SIZE) {
            return null;
        }
        ByteBuffer r = record.duplicate().order(ByteOrder.nativeOrder());
        int o = r.position();
        int caplen = r.getShort(o + 60) & 0xFFFF;
        int kind = r.get(o + 62) & 0xFF;
        int flags = r.get(o + 63) & 0xFF;
        byte[] frame = null;
        if (kind == KIND_PAYLOAD) {
            if (caplen > FRAME_MAX || HEADER_SIZE + caplen > size) {
                return null;
            }
            frame = new byte[caplen];
            r.position(o + HEADER_SIZE);
            r.get(frame);
        }
        return new KernelPayload(r.getLong(o), r.getLong(o + 8), r.getLong(o + 16), r.getLong(o + 24),
                r.getShort(o + 32) & 0xFFFF, r.getShort(o + 34) & 0xFFFF, r.get(o + 36) & 0xFF, r.getLong(o + 40),
                r.getLong(o + 48), r.getInt(o + 56), frame, (flags & 1) != 0, (flags & 2) != 0);
    }
}
