package io.siteflow.agent.export;

import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.ServicePorts;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.IpAddresses;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.function.Consumer;

/**
 * Joins the two directions of a conversation, as exporters send them (one unidirectional record each, or one RFC
 * 5103 biflow record), into one {@link FlowRecord} of the agent's shape. Records are joined per exporter, domain and
 * 5-tuple for the agent's active timeout from the first one (then an interim record goes out, as the flow table's
 * active timeout does) or until the conversation has been silent for the idle timeout; the table holds at most
 * {@code maxFlows} conversations (beyond that the oldest goes out early, counted as an eviction). Counts are
 * multiplied by the sampling rate as they arrive; each record carries the delta, so sums over records are exact.
 *
 * <p>The initiator ({@code src}): the end whose direction has SYN without ACK in its exported TCP flags when exactly
 * one does; else the flow table's port rule ({@link ServicePorts#initiatorByPorts}: the end on a known service port
 * or the higher port is the client); else the end that sent the first record. Records carry no frame bytes
 * ({@code frameBytes} 0: exporters count IP bytes), except sFlow's, which carry the sampled frames' length, scaled.
 * Used on the decoding thread only; not thread-safe.
 */
public final class BiflowJoiner implements ExportReceiver {
    private static final int FIN = 0x01;
    private static final int RST = 0x04;

    private final String agent;
    private String iface;
    private int kind;
    private final String runId;
    private final long activeMs;
    private final long idleMs;
    private final int maxFlows;
    private final Consumer<FlowRecord> out;
    private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>();
    private final Key probe = new Key();
    private long nowMs;
    private long counter;
    private volatile long held;
    private volatile long created;
    private volatile long evictions;
    private volatile long unaddressed;

    /**
     * @param iface  what records name as the capture point: the listening address
     * @param runId  prefix of record ids ({@code <runId>-<counter>})
     * @param config the agent's flow-table settings: active and idle timeout, max flows
     */
    public BiflowJoiner(String agent, String iface, String runId, FlowTableConfig config, Consumer<FlowRecord> out) {
        this.agent = agent;
        this.iface = iface;
        this.runId = runId;
        this.activeMs = config.activeTimeout().toMillis();
        this.idleMs = config.idleTimeout().toMillis();
        this.maxFlows = config.maxFlows();
        this.out = out;
    }

    /**
     * Sets the socket the records that follow came from: records name it as {@code iface}, and conversations of
     * different sockets ({@code kind}: 0 NetFlow/IPFIX, 1 sFlow) are kept apart.
     */
    public void source(String iface, int kind) {
        this.iface = iface;
        this.kind = kind;
    }

    /** Sets the arrival time of the records that follow (epoch ms), used for the timeouts. */
    public void now(long nowMs) {
        this.nowMs = nowMs;
    }

    @Override
    public void flow(ExporterState exporter, long domain, ExportFlow f, long sampling) {
        if (!f.hasSrc || !f.hasDst) {
            unaddressed++;
            return;
        }
        int c = compare(f.srcHi, f.srcLo, f.srcPort, f.dstHi, f.dstLo, f.dstPort);
        boolean ab = c <= 0;
        Key key = ab
                ? probe.set(kind, exporter.hi, exporter.lo, domain, f.srcHi, f.srcLo, f.dstHi, f.dstLo,
                f.srcPort << 16 | f.dstPort, f.proto)
                : probe.set(kind, exporter.hi, exporter.lo, domain, f.dstHi, f.dstLo, f.srcHi, f.srcLo,
                f.dstPort << 16 | f.srcPort, f.proto);
        Entry e = entries.get(key);
        if (e == null) {
            key = key.copy(); // the probe is reused: a new conversation keeps a key of its own
            if (entries.size() >= maxFlows) {
                Iterator<Entry> eldest = entries.values().iterator();
                emit(eldest.next(), true);
                eldest.remove();
                evictions++;
            }
            e = new Entry(key, iface, exporter.address, domain, nowMs, ab);
            entries.put(key, e);
            created++;
            held = entries.size();
        }
        long rate = Math.max(sampling, 1);
        e.add(ab, f.bytes * rate, f.packets * rate, f.frameBytes * rate, f.tcpFlags);
        if (f.biflow) {
            e.add(!ab, f.rbytes * rate, f.rpackets * rate, 0, f.rtcpFlags);
        }
        e.rate = Math.max(e.rate, rate);
        long start = f.startMs >= 0 ? f.startMs : nowMs;
        long end = f.endMs >= 0 ? f.endMs : nowMs;
        e.start = Math.min(e.start, Math.min(start, end));
        e.end = Math.max(e.end, Math.max(start, end));
        e.lastMs = nowMs;
    }

    /** Emits the conversations whose active or idle timeout has passed at {@code nowMs}. */
    public void expire(long nowMs) {
        this.nowMs = nowMs;
        boolean headOnly = idleMs >= activeMs; // insertion order is first-arrival order
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
            Entry e = it.next();
            boolean active = nowMs - e.firstMs >= activeMs;
            boolean idle = nowMs - e.lastMs >= idleMs;
            if (active || idle) {
                emit(e, idle);
                it.remove();
            } else if (headOnly) {
                break;
            }
        }
        held = entries.size();
    }

    /** Emits every conversation held, as ended (the end of the run). */
    public void flushAll() {
        for (Entry e : entries.values()) {
            emit(e, true);
        }
        entries.clear();
        held = 0;
    }

    /** Conversations held now; safe from any thread. */
    public long held() {
        return held;
    }

    /** Conversations ever created; safe from any thread. */
    public long created() {
        return created;
    }

    /** Conversations emitted early because the table was full; safe from any thread. */
    public long evictions() {
        return evictions;
    }

    /** Flow records without both addresses (not IP flows), left out; safe from any thread. */
    public long unaddressed() {
        return unaddressed;
    }

    private void emit(Entry e, boolean ended) {
        Key k = e.key;
        int aPort = k.ports >>> 16;
        int bPort = k.ports & 0xFFFF;
        boolean aInitiates = initiatorIsA(k.proto == 6, e, aPort, bPort);
        FlowRecord.Builder b = FlowRecord.builder().id(runId + "-" + (++counter)).agent(agent).iface(e.iface)
                .time(e.start, e.end).exporter(e.exporter, e.domain)
                .sampled(e.rate > 1 ? (int) Math.min(e.rate, Integer.MAX_VALUE) : null)
                .isFinal(ended || ((e.abFlags | e.baFlags) & (FIN | RST)) != 0);
        String a = IpAddresses.format(k.aHi, k.aLo);
        String bAddr = IpAddresses.format(k.bHi, k.bLo);
        if (aInitiates) {
            b.endpoints(k.proto, a, aPort, bAddr, bPort).forward(e.abBytes, e.abPackets, e.abFrames, e.abFlags)
                    .reverse(e.baBytes, e.baPackets, e.baFrames, e.baFlags);
        } else {
            b.endpoints(k.proto, bAddr, bPort, a, aPort).forward(e.baBytes, e.baPackets, e.baFrames, e.baFlags)
                    .reverse(e.abBytes, e.abPackets, e.abFrames, e.abFlags);
        }
        out.accept(b.build());
    }

    private static boolean initiatorIsA(boolean tcp, Entry e, int aPort, int bPort) {
        int who = ServicePorts.initiator(tcp, e.abFlags, e.baFlags, aPort, bPort);
        return who != 0 ? who > 0 : e.firstAb;
    }

    private static int compare(long hi1, long lo1, int port1, long hi2, long lo2, int port2) {
        int c = Long.compareUnsigned(hi1, hi2);
        if (c == 0) {
            c = Long.compareUnsigned(lo1, lo2);
        }
        return c != 0 ? c : Integer.compare(port1, port2);
    }

    /**
     * Socket kind, exporter, domain and the 5-tuple with the lower end ({@code a}) first. Mutable so that one probe
     * looks every record up without allocating; a key in the table is a {@link #copy} and never changes.
     */
    private static final class Key {
        int kind;
        long exHi;
        long exLo;
        long domain;
        long aHi;
        long aLo;
        long bHi;
        long bLo;
        int ports;
        int proto;
        private int hash;

        Key set(int kind, long exHi, long exLo, long domain, long aHi, long aLo, long bHi, long bLo, int ports,
                int proto) {
            this.kind = kind;
            this.exHi = exHi;
            this.exLo = exLo;
            this.domain = domain;
            this.aHi = aHi;
            this.aLo = aLo;
            this.bHi = bHi;
            this.bLo = bLo;
            this.ports = ports;
            this.proto = proto;
            long h = exLo * 31 + exHi;
            h = h * 31 + domain;
            h = h * 31 + aHi;
            h = h * 31 + aLo;
            h = h * 31 + bHi;
            h = h * 31 + bLo;
            h = h * 31 + ((long) ports << 16 ^ proto << 1 ^ kind);
            h *= 0x9E37_79B9_7F4A_7C15L; // spreads the low bits the map indexes by
            this.hash = (int) (h ^ h >>> 32);
            return this;
        }

        Key copy() {
            return new Key().set(kind, exHi, exLo, domain, aHi, aLo, bHi, bLo, ports, proto);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.aLo == aLo && k.bLo == bLo && k.ports == ports && k.aHi == aHi
                    && k.bHi == bHi && k.proto == proto && k.domain == domain && k.exLo == exLo && k.exHi == exHi
                    && k.kind == kind;
        }
    }

    /** One conversation being joined: both directions' counts and the times seen. */
    private static final class Entry {
        final Key key;
        final String iface;
        final String exporter;
        final long domain;
        final long firstMs;
        final boolean firstAb;
        long lastMs;
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        long abBytes;
        long abPackets;
        long abFrames;
        int abFlags;
        long baBytes;
        long baPackets;
        long baFrames;
        int baFlags;
        long rate = 1;

        Entry(Key key, String iface, String exporter, long domain, long firstMs, boolean firstAb) {
            this.key = key;
            this.iface = iface;
            this.exporter = exporter;
            this.domain = domain;
            this.firstMs = firstMs;
            this.firstAb = firstAb;
            this.lastMs = firstMs;
        }

        void add(boolean ab, long bytes, long packets, long frames, int flags) {
            if (ab) {
                abBytes += bytes;
                abPackets += packets;
                abFrames += frames;
                abFlags |= flags;
            } else {
                baBytes += bytes;
                baPackets += packets;
                baFrames += frames;
                baFlags |= flags;
            }
        }
    }
}
