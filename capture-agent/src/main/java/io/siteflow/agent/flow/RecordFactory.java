package io.siteflow.agent.flow;

import io.siteflow.model.CallHistogram;
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

    FlowRecord build(FlowStore st, int s, boolean isFinal, String l7) {
        boolean initB = (st.meta[s] & FlowStore.INITIATOR_B) != 0;
        int portA = st.ports[s] >>> 16;
        int portB = st.ports[s] & 0xFFFF;
        String a = IpAddresses.format(st.aHi[s], st.aLo[s]);
        String b = IpAddresses.format(st.bHi[s], st.bLo[s]);
        long startNs = st.recStart[s] != 0 ? st.recStart[s] : st.lastSeen[s];
        long start = Math.floorDiv(startNs, 1_000_000L);
        long end = Math.floorDiv(st.lastSeen[s], 1_000_000L);
        Long rtt = st.rtt[s] >= 0 ? Long.valueOf(st.rtt[s]) : null;
        Long dataRtt = st.dataRttMin[s] >= 0 ? Long.valueOf(st.dataRttMin[s]) : null;
        int proto = st.meta[s] & 0xFF;
        int flagsAb = st.tcpFlags[s] & 0xFFFF;
        int flagsBa = st.tcpFlags[s] >>> 16;
        String id = runId + "-" + (++counter);
        CallState c = st.calls[s];
        long calls = c == null ? 0 : c.calls;
        long callMicros = c == null ? 0 : c.micros;
        CallHistogram hist = c == null ? CallHistogram.EMPTY : c.histogram();
        if (!initB) {
            return new FlowRecord(FlowRecord.SCHEMA, agent, iface, start, end, proto, a, portA, b, portB,
                    st.abBytes[s], st.abPackets[s], st.baBytes[s], st.baPackets[s], st.abFrames[s], st.baFrames[s],
                    flagsAb, flagsBa, rtt, l7, st.sni[s], isFinal, id, dataRtt, calls, callMicros, hist);
        }
        return new FlowRecord(FlowRecord.SCHEMA, agent, iface, start, end, proto, b, portB, a, portA,
                st.baBytes[s], st.baPackets[s], st.abBytes[s], st.abPackets[s], st.baFrames[s], st.abFrames[s],
                flagsBa, flagsAb, rtt, l7, st.sni[s], isFinal, id, dataRtt, calls, callMicros, hist);
    }
}
