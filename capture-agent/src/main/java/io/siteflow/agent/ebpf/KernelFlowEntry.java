package io.siteflow.agent.ebpf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One entry of the program's flow map ({@code struct flow_key} → {@code struct flow_val} in
 * {@code src/main/bpf/flows.bpf.c}): a bidirectional flow since the map was last drained. Side a is the lower end
 * (address, then port, as unsigned numbers), as in the agent's flow table; addresses are in
 * {@link io.siteflow.model.IpAddresses}' hi/lo form (IPv4-mapped for IPv4). Times are the kernel's monotonic clock
 * ({@code bpf_ktime_get_ns}).
 *
 * @param firstFlags TCP flags of the entry's first packet (0 for other protocols)
 * @param firstFromB the entry's first packet went from b to a
 * @param rttMicros  handshake RTT completed while this entry was in the map, -1 when none
 * @param dataRttMicros the smallest data-segment RTT sample completed while this entry was in the map (the packet
 *                   path's {@code dataRttMicros} rules), -1 when none
 */
record KernelFlowEntry(long aHi, long aLo, long bHi, long bLo, int aPort, int bPort, int proto, long firstNs,
        long lastNs, long abPackets, long abIpBytes, long abFrameBytes, long baPackets, long baIpBytes,
        long baFrameBytes, int abFlags, int baFlags, int firstFlags, boolean firstFromB, long rttMicros,
        long dataRttMicros) {

    /** {@code sizeof(struct flow_key)}. */
    static final int KEY_SIZE = 40;
    /** {@code sizeof(struct flow_val)}. */
    static final int VALUE_SIZE = 112;
    private static final int FIRST_FROM_B = 0x10000;

    /**
     * Decodes entry {@code i} of a batch: keys and values as the kernel wrote them (native byte order), one after
     * the other. The buffers' positions and order are not changed.
     */
    static KernelFlowEntry decode(ByteBuffer keys, ByteBuffer values, int i) {
        ByteBuffer k = keys.duplicate().order(ByteOrder.nativeOrder());
        ByteBuffer v = values.duplicate().order(ByteOrder.nativeOrder());
        int ko = i * KEY_SIZE;
        int vo = i * VALUE_SIZE;
        int first = v.getInt(vo + 72);
        long rtt = v.getInt(vo + 76) & 0xFFFF_FFFFL;
        long dataRtt = v.getInt(vo + 104) & 0xFFFF_FFFFL;
        return new KernelFlowEntry(k.getLong(ko), k.getLong(ko + 8), k.getLong(ko + 16), k.getLong(ko + 24),
                k.getShort(ko + 32) & 0xFFFF, k.getShort(ko + 34) & 0xFFFF, k.get(ko + 36) & 0xFF,
                v.getLong(vo), v.getLong(vo + 8), v.getLong(vo + 16), v.getLong(vo + 24), v.getLong(vo + 32),
                v.getLong(vo + 40), v.getLong(vo + 48), v.getLong(vo + 56), v.getInt(vo + 64), v.getInt(vo + 68),
                first & 0xFFFF, (first & FIRST_FROM_B) != 0, rtt - 1, dataRtt - 1);
    }

    /** {@code sizeof(struct overflow_rec)}: a flow key, then time, IP bytes, frame bytes, packets, flags, direction. */
    static final int OVERFLOW_SIZE = 72;

    /**
     * Decodes a record of the {@code overflow} ring buffer (a packet, or a GSO packet's segments, of a flow the flow
     * map could not take) as an entry of that one packet: its counts on its side, its time as first and last.
     */
    static KernelFlowEntry overflow(ByteBuffer record) {
        ByteBuffer r = record.duplicate().order(ByteOrder.nativeOrder());
        int o = r.position();
        long ts = r.getLong(o + 40);
        long ip = r.getLong(o + 48);
        long frame = r.getLong(o + 56);
        long packets = r.getInt(o + 64) & 0xFFFF_FFFFL;
        int flags = r.getShort(o + 68) & 0xFFFF;
        boolean ba = r.get(o + 70) != 0;
        return new KernelFlowEntry(r.getLong(o), r.getLong(o + 8), r.getLong(o + 16), r.getLong(o + 24),
                r.getShort(o + 32) & 0xFFFF, r.getShort(o + 34) & 0xFFFF, r.get(o + 36) & 0xFF, ts, ts,
                ba ? 0 : packets, ba ? 0 : ip, ba ? 0 : frame, ba ? packets : 0, ba ? ip : 0, ba ? frame : 0,
                ba ? 0 : flags, ba ? flags : 0, flags, ba, -1, -1);
    }

    /** True when the protocol carries ports the program read (the flow table's {@code hasPorts}). */
    boolean tcp() {
        return proto == 6;
    }
}
