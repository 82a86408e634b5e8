package io.siteflow.agent.flow;

import io.siteflow.model.Counters;
import io.siteflow.model.DbCalls;
import io.siteflow.model.Endpoints;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.IpAddresses;

/**
 * Builds flow records from flow-table slots, oriented so that {@code src} is the initiator, with ids
 * {@code <runId>-<counter>}. Not thread-safe (one per flow table).
 */
public final class RecordFactory {
    private final String agent;
    private final String iface;
    private final String runId;
    private long counter;

    /**
     * @param agent agent id written into every record
     * @param iface interface or capture file name
     * @param runId identifies this run of the agent; record ids are unique across runs when run ids are
     */
    public RecordFactory(String agent, String iface, String runId) {
        this.agent = agent;
        this.iface = iface;
        this.runId = runId;
    }

    /** Records built so far. */
    public long count() {
        return counter;
    }

    /**
     * The record of slot {@code s}: side a and side b of the slot become src and dst, or dst and src when b
     * initiated the flow.
     *
     * @param l7 the detected protocol's wire name, null when none
     */
    FlowRecord build(FlowStore st, int s, boolean isFinal, String l7) {
        Endpoints ab = new Endpoints(st.meta[s] & 0xFF, IpAddresses.format(st.aHi[s], st.aLo[s]), st.ports[s] >>> 16,
                IpAddresses.format(st.bHi[s], st.bLo[s]), st.ports[s] & 0xFFFF);
        Counters fromA = new Counters(st.abBytes[s], st.abPackets[s], st.abFrames[s], st.tcpFlags[s] & 0xFFFF);
        Counters fromB = new Counters(st.baBytes[s], st.baPackets[s], st.baFrames[s], st.tcpFlags[s] >>> 16);
        boolean initB = (st.meta[s] & FlowStore.INITIATOR_B) != 0;
        long startNs = st.recStart[s] != 0 ? st.recStart[s] : st.lastSeen[s];
        CallState c = st.calls[s];
        return oriented(ab, initB, fromA, fromB, startNs, st.lastSeen[s])
                .rttMicros(st.rtt[s] >= 0 ? Long.valueOf(st.rtt[s]) : null)
                .dataRttMicros(st.dataRttMin[s] >= 0 ? Long.valueOf(st.dataRttMin[s]) : null)
                .l7(l7).sni(st.sni[s])
                .db(c == null ? DbCalls.NONE : new DbCalls(c.calls, c.micros, c.histogram()))
                .isFinal(isFinal).build();
    }

    /**
     * The record of a flow aggregated outside the flow table (the in-kernel source, {@code ebpf.KernelFlows}), built
     * the same way: side a and side b become src and dst, or dst and src when b initiated the flow.
     *
     * @param ab            the flow's ends, side a as src
     * @param startNs       first packet of this record, epoch ns
     * @param lastNs        last packet of this record, epoch ns
     * @param rttMicros     handshake RTT, null when not seen
     * @param dataRttMicros the smallest data-segment RTT sample of this record, null when none
     * @param l7            the detected protocol's wire name, null when none
     * @param sni           the TLS server name, null when none
     * @param db            the DB calls of this record, {@link DbCalls#NONE} when none
     */
    public FlowRecord build(Endpoints ab, boolean initiatorB, Counters fromA, Counters fromB, long startNs, long lastNs,
            Long rttMicros, Long dataRttMicros, String l7, String sni, DbCalls db, boolean isFinal) {
        return oriented(ab, initiatorB, fromA, fromB, startNs, lastNs).rttMicros(rttMicros).dataRttMicros(dataRttMicros)
                .l7(l7).sni(sni).db(db).isFinal(isFinal).build();
    }

    private FlowRecord.Builder oriented(Endpoints ab, boolean initB, Counters fromA, Counters fromB, long startNs,
            long lastNs) {
        return FlowRecord.builder().id(runId + "-" + (++counter)).agent(agent).iface(iface)
                .time(Math.floorDiv(startNs, 1_000_000L), Math.floorDiv(lastNs, 1_000_000L))
                .endpoints(initB ? reversed(ab) : ab).forward(initB ? fromB : fromA).reverse(initB ? fromA : fromB);
    }

    private static Endpoints reversed(Endpoints e) {
        return new Endpoints(e.proto(), e.dst(), e.dstPort(), e.src(), e.srcPort());
    }
}
