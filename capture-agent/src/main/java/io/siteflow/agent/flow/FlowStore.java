package io.siteflow.agent.flow;

/**
 * The state of every flow held by {@link FlowTable}, as parallel primitive arrays indexed by slot (188 bytes
 * per flow with the index and eviction list, no object per flow). End A of a flow is the canonical lower endpoint, so both
 * directions of a conversation share one slot; counters are kept per direction A→B and B→A and hold the
 * delta since the flow's previous record. Package-private; not thread-safe.
 */
final class FlowStore {
    static final int IN_USE = 1 << 8;
    static final int INITIATOR_B = 1 << 9;
    static final int FIN_A = 1 << 10;
    static final int FIN_B = 1 << 11;
    static final int RST = 1 << 12;
    static final int SYN_SEEN = 1 << 13;
    static final int SYNACK_SEEN = 1 << 14;
    static final int RTT_DONE = 1 << 15;
    static final int PEND_AB = 1 << 16;
    static final int PEND_BA = 1 << 17;
    static final int IN_LRU = 1 << 18;
    /** The flow is a database flow whose calls are timed ({@link DbCalls}). */
    static final int DB_CALLS = 1 << 19;

    final long[] aHi;
    final long[] aLo;
    final long[] bHi;
    final long[] bLo;
    /** {@code portA << 16 | portB}. */
    final int[] ports;
    /** Protocol in the low 8 bits, flag bits above. */
    final int[] meta;
    final int[] hashes;
    final long[] abBytes;
    final long[] abPackets;
    final long[] baBytes;
    final long[] baPackets;
    final long[] abFrames;
    final long[] baFrames;
    /** TCP flags A→B in the low 16 bits, B→A in the high 16 bits. */
    final int[] tcpFlags;
    /** Time of the first packet of the current record, ns; 0 when the record has no packet yet. */
    final long[] recStart;
    /** Time of the last packet of the flow, ns. */
    final long[] lastSeen;
    /** Time of the latest SYN, ns. */
    final long[] synNs;
    final int[] synAckSeq;
    /** Handshake RTT in µs waiting to go out with the next record, -1 when none. */
    final int[] rtt;
    final int[] l7State;
    final String[] sni;
    /** Data-segment RTT: sequence end awaiting an ACK, per direction. */
    final int[] pendSeqAb;
    final int[] pendSeqBa;
    /** µs after {@link #recStart} when the awaited segment was seen, per direction. */
    final int[] pendTimeAb;
    final int[] pendTimeBa;
    /** Latest half round trip (capture point → receiver → capture point) in µs, per receiving end; -1 none. */
    final int[] halfToB;
    final int[] halfToA;
    /** Smallest full data RTT in this record, µs; -1 none. */
    final int[] dataRttMin;
    /** DB call state, only for flows with {@link #DB_CALLS} that sent payload; else null. */
    final CallState[] calls;

    FlowStore(int capacity) {
        aHi = new long[capacity];
        aLo = new long[capacity];
        bHi = new long[capacity];
        bLo = new long[capacity];
        ports = new int[capacity];
        meta = new int[capacity];
        hashes = new int[capacity];
        abBytes = new long[capacity];
        abPackets = new long[capacity];
        baBytes = new long[capacity];
        baPackets = new long[capacity];
        abFrames = new long[capacity];
        baFrames = new long[capacity];
        tcpFlags = new int[capacity];
        recStart = new long[capacity];
        lastSeen = new long[capacity];
        synNs = new long[capacity];
        synAckSeq = new int[capacity];
        rtt = new int[capacity];
        l7State = new int[capacity];
        sni = new String[capacity];
        pendSeqAb = new int[capacity];
        pendSeqBa = new int[capacity];
        pendTimeAb = new int[capacity];
        pendTimeBa = new int[capacity];
        halfToB = new int[capacity];
        halfToA = new int[capacity];
        dataRttMin = new int[capacity];
        calls = new CallState[capacity];
    }

    /** Heap bytes of the arrays (element data only; SNI strings, when present, come on top). */
    long footprintBytes() {
        long longs = 0;
        for (long[] a : new long[][] {aHi, aLo, bHi, bLo, abBytes, abPackets, baBytes, baPackets, abFrames, baFrames,
            recStart, lastSeen, synNs}) {
            longs += a.length;
        }
        long ints = 0;
        for (int[] a : new int[][] {ports, meta, hashes, tcpFlags, synAckSeq, rtt, l7State, pendSeqAb, pendSeqBa,
            pendTimeAb, pendTimeBa, halfToB, halfToA, dataRttMin}) {
            ints += a.length;
        }
        return longs * 8 + ints * 4 + (long) (sni.length + calls.length) * 4;
    }

    boolean matches(int s, long kaHi, long kaLo, long kbHi, long kbLo, int kPorts, int proto) {
        return aLo[s] == kaLo && bLo[s] == kbLo && ports[s] == kPorts && (meta[s] & 0xFF) == proto
                && aHi[s] == kaHi && bHi[s] == kbHi;
    }

    int hash(int s) {
        return hashes[s];
    }

    void init(int s, long kaHi, long kaLo, long kbHi, long kbLo, int kPorts, int proto, int hash, int l7Initial) {
        aHi[s] = kaHi;
        aLo[s] = kaLo;
        bHi[s] = kbHi;
        bLo[s] = kbLo;
        ports[s] = kPorts;
        meta[s] = IN_USE | proto;
        hashes[s] = hash;
        resetCounters(s);
        lastSeen[s] = 0;
        synNs[s] = 0;
        synAckSeq[s] = 0;
        rtt[s] = -1;
        l7State[s] = l7Initial;
        sni[s] = null;
        halfToA[s] = -1;
        halfToB[s] = -1;
    }

    /** Clears the per-record deltas after a record went out. */
    void resetCounters(int s) {
        abBytes[s] = 0;
        abPackets[s] = 0;
        baBytes[s] = 0;
        baPackets[s] = 0;
        abFrames[s] = 0;
        baFrames[s] = 0;
        tcpFlags[s] = 0;
        recStart[s] = 0;
        dataRttMin[s] = -1;
        meta[s] &= ~(PEND_AB | PEND_BA);
        if (calls[s] != null) {
            calls[s].clearRecord();
        }
    }

    void free(int s) {
        meta[s] = 0;
        sni[s] = null;
    }

    boolean inUse(int s) {
        return (meta[s] & IN_USE) != 0;
    }
}
