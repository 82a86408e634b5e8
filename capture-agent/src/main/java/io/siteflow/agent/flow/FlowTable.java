package io.siteflow.agent.flow;

import io.siteflow.agent.decode.Packet;
import io.siteflow.model.FlowRecord;

/**
 * Aggregates decoded packets into bidirectional flows keyed by the 5-tuple and exports flow records to a
 * {@link FlowSink} (DESIGN.md "Flow table"). Time is the packets' own time, never the wall clock, except
 * through {@link #advanceTime} which a live capture calls while no packets arrive.
 *
 * <ul>
 *   <li>Initiator ({@code src}): the SYN sender; for a flow already running, the end on an ephemeral port
 *       (the other end's port is a known service port or the lower one); else the first sender.</li>
 *   <li>Records: an interim record when the active timeout has passed since the record's first packet;
 *       a final one on idle timeout, after FIN from both ends or RST (plus a short linger for trailing
 *       ACKs), on eviction and at {@link #flushAll}; also when a SYN opens a new connection on the 5-tuple of a
 *       flow past its handshake (whose end was not seen). Every record carries the delta since the previous one.</li>
 *   <li>Bound: at most {@code maxFlows} flows; a new flow beyond that evicts the least recently seen one
 *       (exported early as final, counted in {@link #evictions()}).</li>
 *   <li>DB calls: on {@code oracle-tns}, {@code postgresql} and {@code mysql} flows, calls are counted and
 *       timed ({@link DbCalls}) unless {@link FlowTableConfig#dbCallTiming()} is off.</li>
 *   <li>Fragments: non-first fragments join the 5-tuple flow of their first fragment, or an IP-pair flow
 *       (ports 0) when it was not seen, so that IP-pair totals stay exact.</li>
 * </ul>
 * One thread; not thread-safe.
 */
public final class FlowTable {
    private static final int TCP = 6;
    private static final int SYN = 0x02;
    private static final int ACK = 0x10;
    private static final int FIN = 0x01;
    private static final int RST = 0x04;
    private static final long SCAN_INTERVAL_NS = 1_000_000_000L;

    private final FlowStore st;
    private final FlowIndex index;
    private final int capacity;
    private final int[] freeSlots;
    private int freeTop;
    private int size;
    private final long activeNs;
    private final long idleNs;
    private final long lingerNs;
    private final RecordFactory factory;
    private final FlowSink sink;
    private final L7Tracker l7;
    private final FragmentPorts fragments = new FragmentPorts();
    private final DbCalls dbCalls = new DbCalls();
    private final boolean callTiming;
    private long now;
    private long nextScan = Long.MIN_VALUE;
    private final int[] lruPrev;
    private final int[] lruNext;
    private int lruHead = -1;
    private int lruTail = -1;
    private long evictions;
    private long flowsCreated;

    public FlowTable(FlowTableConfig config, RecordFactory factory, FlowSink sink, L7Tracker l7) {
        this.capacity = config.maxFlows();
        this.st = new FlowStore(capacity);
        this.index = new FlowIndex(capacity, st);
        this.freeSlots = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            freeSlots[i] = capacity - 1 - i;
        }
        this.freeTop = capacity;
        this.lruPrev = new int[capacity];
        this.lruNext = new int[capacity];
        this.activeNs = config.activeTimeout().toNanos();
        this.idleNs = config.idleTimeout().toNanos();
        this.lingerNs = config.closeLinger().toNanos();
        this.factory = factory;
        this.sink = sink;
        this.l7 = l7;
        this.callTiming = config.dbCallTiming();
    }

    /**
     * Heap bytes the table holds for its {@code maxFlows} flows, allocated up front: per-flow arrays, index,
     * free list and eviction list (SNI strings of TLS flows come on top).
     */
    public long footprintBytes() {
        return st.footprintBytes() + index.footprintBytes() + (long) freeSlots.length * 4
                + (long) (lruPrev.length + lruNext.length) * 4;
    }

    /** Flows held now. */
    public int size() {
        return size;
    }

    /** Flows exported early because the table was full. */
    public long evictions() {
        return evictions;
    }

    /** Flows created since start. */
    public long flowsCreated() {
        return flowsCreated;
    }

    /**
     * Adds one decoded IP packet.
     *
     * @param p       decoded facts ({@link io.siteflow.agent.decode.DecodeStatus#IP})
     * @param tsNanos packet time
     * @param wireLen link-layer wire length
     * @param data    packet buffer (for payload signatures), only read during the call
     */
    public void offer(Packet p, long tsNanos, int wireLen, byte[] data) {
        advanceTime(tsNanos);
        int proto = p.protocol & 0xFF;
        int sp = 0;
        int dp = 0;
        if (p.fragment) {
            if (p.fragmentOffset == 0 && p.hasPorts) {
                sp = p.srcPort;
                dp = p.dstPort;
                fragments.remember(p.srcHi, p.srcLo, p.dstHi, p.dstLo, proto, p.fragmentId, sp, dp);
            } else if (p.fragmentOffset != 0) {
                long packed = fragments.lookup(p.srcHi, p.srcLo, p.dstHi, p.dstLo, proto, p.fragmentId);
                if (packed >= 0) {
                    sp = (int) (packed >>> 16);
                    dp = (int) (packed & 0xFFFF);
                }
            }
        } else if (p.hasPorts) {
            sp = p.srcPort;
            dp = p.dstPort;
        }
        boolean srcIsA = compare(p.srcHi, p.srcLo, sp, p.dstHi, p.dstLo, dp) <= 0;
        long kaHi = srcIsA ? p.srcHi : p.dstHi;
        long kaLo = srcIsA ? p.srcLo : p.dstLo;
        long kbHi = srcIsA ? p.dstHi : p.srcHi;
        long kbLo = srcIsA ? p.dstLo : p.srcLo;
        int kPorts = srcIsA ? (sp << 16) | dp : (dp << 16) | sp;
        int h = FlowIndex.hash(kaHi, kaLo, kbHi, kbLo, kPorts, proto);
        int s = index.find(kaHi, kaLo, kbHi, kbLo, kPorts, proto, h);
        boolean tcp = proto == TCP && p.hasPorts;
        int flags = tcp ? p.tcpFlags : 0;
        if (s >= 0 && tcp && (flags & (SYN | ACK)) == SYN && (isClosed(s) || isPastHandshake(s))) {
            exportAndRemove(s);
            s = -1;
        }
        if (s < 0) {
            s = create(kaHi, kaLo, kbHi, kbLo, kPorts, proto, h);
            boolean srcInitiates = srcInitiates(tcp, flags, sp, dp);
            if (srcInitiates != srcIsA) {
                st.meta[s] |= FlowStore.INITIATOR_B;
            }
        }
        touch(s);
        count(s, srcIsA, p.ipBytes, wireLen, tsNanos, flags);
        if (tcp) {
            tcpState(s, srcIsA, p, tsNanos);
        }
        if (p.hasPorts && p.payloadCaptured > 0 && !l7.done(st.l7State[s])) {
            boolean fromInit = srcIsA == ((st.meta[s] & FlowStore.INITIATOR_B) == 0);
            st.l7State[s] = l7.inspect(st.l7State[s], fromInit, p, data);
            String name = l7.lastSni();
            if (name != null && st.sni[s] == null) {
                st.sni[s] = name;
            }
            if (callTiming && tcp && l7.timesCalls(st.l7State[s])) {
                st.meta[s] |= FlowStore.DB_CALLS;
            }
        }
        if ((st.meta[s] & FlowStore.DB_CALLS) != 0) {
            dbCalls.offer(st, s, srcIsA == ((st.meta[s] & FlowStore.INITIATOR_B) == 0), p, tsNanos);
        }
    }

    private static int compare(long hi1, long lo1, int port1, long hi2, long lo2, int port2) {
        int c = Long.compareUnsigned(hi1, hi2);
        if (c == 0) {
            c = Long.compareUnsigned(lo1, lo2);
        }
        return c != 0 ? c : Integer.compare(port1, port2);
    }

    /**
     * The initiator rule (class comment), from the first packet of a flow: true when its sender initiated the flow.
     * Also used by sources that aggregate elsewhere (the in-kernel source), so the rule stays one function.
     *
     * @param tcp   the packet is TCP with ports
     * @param flags its TCP flags (0 for other protocols)
     * @param sp    its source port (0 without ports)
     * @param dp    its destination port
     */
    public static boolean srcInitiates(boolean tcp, int flags, int sp, int dp) {
        if (tcp && (flags & SYN) != 0) {
            return (flags & ACK) == 0;
        }
        if (sp == 0 && dp == 0) {
            return true;
        }
        int byPorts = ServicePorts.initiatorByPorts(sp, dp);
        return byPorts >= 0;
    }

    private int create(long kaHi, long kaLo, long kbHi, long kbLo, int kPorts, int proto, int h) {
        if (freeTop == 0) {
            evictOne();
        }
        int s = freeSlots[--freeTop];
        st.init(s, kaHi, kaLo, kbHi, kbLo, kPorts, proto, h, l7.initialState());
        index.insert(s, h);
        size++;
        flowsCreated++;
        return s;
    }

    private void count(int s, boolean ab, int ipBytes, int wireLen, long ts, int flags) {
        if (ab) {
            st.abBytes[s] += ipBytes;
            st.abPackets[s]++;
            st.abFrames[s] += wireLen;
            st.tcpFlags[s] |= flags;
        } else {
            st.baBytes[s] += ipBytes;
            st.baPackets[s]++;
            st.baFrames[s] += wireLen;
            st.tcpFlags[s] |= flags << 16;
        }
        if (st.recStart[s] == 0 || ts < st.recStart[s]) {
            st.recStart[s] = ts;
        }
        if (ts > st.lastSeen[s]) {
            st.lastSeen[s] = ts;
        }
    }

    /** Handshake RTT, data-segment RTT samples, FIN/RST. */
    private void tcpState(int s, boolean ab, Packet p, long ts) {
        int flags = p.tcpFlags;
        boolean fromInit = ab == ((st.meta[s] & FlowStore.INITIATOR_B) == 0);
        int m = st.meta[s];
        if ((flags & (SYN | ACK)) == SYN && fromInit) {
            st.synNs[s] = ts;
            m = (m | FlowStore.SYN_SEEN) & ~FlowStore.SYNACK_SEEN;
        } else if ((flags & (SYN | ACK)) == (SYN | ACK) && !fromInit && (m & FlowStore.SYN_SEEN) != 0) {
            st.synAckSeq[s] = (int) p.tcpSeq;
            m |= FlowStore.SYNACK_SEEN;
        } else if ((flags & (SYN | ACK)) == ACK && fromInit && (m & FlowStore.SYNACK_SEEN) != 0
                && (m & FlowStore.RTT_DONE) == 0 && (int) p.tcpAck == st.synAckSeq[s] + 1) {
            long micros = (ts - st.synNs[s]) / 1000;
            st.rtt[s] = (int) Math.min(Integer.MAX_VALUE, Math.max(0, micros));
            m |= FlowStore.RTT_DONE;
        }
        if ((flags & RST) != 0) {
            m |= FlowStore.RST;
        }
        if ((flags & FIN) != 0) {
            m |= ab ? FlowStore.FIN_A : FlowStore.FIN_B;
        }
        st.meta[s] = m;
        DataRtt.sample(st, s, ab, p, ts);
    }

    /**
     * True when a SYN on this flow opens a new connection on the same 5-tuple rather than repeating the flow's
     * own SYN: the flow's handshake completed (the ACK of its SYN/ACK was seen), or it began without a SYN (it
     * was running when capture began). A retransmitted SYN comes before that ACK. The old connection's end was
     * not seen (a lost FIN, a host restart, a capture file replayed in a loop with {@code --loop}); its calls
     * and sequence numbers must not swallow the new one's.
     */
    private boolean isPastHandshake(int s) {
        int m = st.meta[s];
        return (m & FlowStore.RTT_DONE) != 0 || (m & FlowStore.SYN_SEEN) == 0;
    }

    private boolean isClosed(int s) {
        int m = st.meta[s];
        return (m & FlowStore.RST) != 0 || (m & (FlowStore.FIN_A | FlowStore.FIN_B)) == (FlowStore.FIN_A | FlowStore.FIN_B);
    }

    /**
     * Moves the table's clock forward (it never goes back) and ends or exports the flows whose timeouts
     * have passed. Called for every packet, and by a live capture while the interface is idle.
     */
    public void advanceTime(long tsNanos) {
        if (tsNanos > now) {
            now = tsNanos;
        }
        if (now >= nextScan) {
            if (nextScan != Long.MIN_VALUE) {
                expire();
            }
            nextScan = now + SCAN_INTERVAL_NS;
        }
    }

    /** Visits the flows in use through the recency list (size, not capacity, steps). */
    private void expire() {
        int s = lruHead;
        while (s >= 0) {
            int next = lruNext[s];
            long silent = now - st.lastSeen[s];
            if ((isClosed(s) && silent >= lingerNs) || silent >= idleNs) {
                exportAndRemove(s);
            } else if (st.recStart[s] != 0 && now - st.recStart[s] >= activeNs) {
                sink.accept(record(s, false));
                st.resetCounters(s);
                st.rtt[s] = -1;
            }
            s = next;
        }
    }

    private void evictOne() {
        evictions++;
        exportAndRemove(lruHead);
    }

    /** Moves a flow to the most recently used end of the eviction order (a new flow is appended). */
    private void touch(int s) {
        if (s == lruTail) {
            return;
        }
        if ((st.meta[s] & FlowStore.IN_LRU) != 0) {
            unlink(s);
        }
        st.meta[s] |= FlowStore.IN_LRU;
        lruPrev[s] = lruTail;
        lruNext[s] = -1;
        if (lruTail >= 0) {
            lruNext[lruTail] = s;
        } else {
            lruHead = s;
        }
        lruTail = s;
    }

    private void unlink(int s) {
        int p = lruPrev[s];
        int n = lruNext[s];
        if (p >= 0) {
            lruNext[p] = n;
        } else {
            lruHead = n;
        }
        if (n >= 0) {
            lruPrev[n] = p;
        } else {
            lruTail = p;
        }
    }

    private void exportAndRemove(int s) {
        sink.accept(record(s, true));
        unlink(s);
        index.remove(s);
        dbCalls.release(st, s);
        st.free(s);
        freeSlots[freeTop++] = s;
        size--;
    }

    private FlowRecord record(int s, boolean isFinal) {
        return factory.build(st, s, isFinal, l7.protocol(st.l7State[s]));
    }

    /** Ends every flow with a final record (end of capture); the table is empty afterwards. */
    public void flushAll() {
        for (int s = 0; s < capacity; s++) {
            if (st.inUse(s)) {
                exportAndRemove(s);
            }
        }
    }
}
