package io.siteflow.agent.ebpf;

import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTable;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.RecordFactory;
import io.siteflow.model.Counters;
import io.siteflow.model.Endpoints;
import io.siteflow.model.IpAddresses;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The user-space half of the in-kernel aggregation: takes the entries drained from the program's map (each one
 * flow's counts since the last drain) and turns them into flow records with the agent's rules
 * (capture-agent/docs/ebpf.md): the initiator from the flow's first packet ({@link FlowTable#srcInitiates}), an
 * interim record once the active timeout has passed since the record's first packet, a final one on idle timeout,
 * after FIN from both ends or RST plus the close linger, on eviction beyond {@code maxFlows} and at
 * {@link #flushAll}. Every record carries the delta since the previous one. Times are epoch ns. One thread.
 */
final class KernelFlows {
    private static final int FIN = 0x01;
    private static final int RST = 0x04;

    private final long activeNs;
    private final long idleNs;
    private final long lingerNs;
    private final int maxFlows;
    private final RecordFactory factory;
    private final FlowSink sink;
    private final LinkedHashMap<Key, Flow> flows = new LinkedHashMap<>(1024, 0.75f, true);
    private long created;
    private long evictions;

    KernelFlows(FlowTableConfig config, RecordFactory factory, FlowSink sink) {
        this.activeNs = config.activeTimeout().toNanos();
        this.idleNs = config.idleTimeout().toNanos();
        this.lingerNs = config.closeLinger().toNanos();
        this.maxFlows = config.maxFlows();
        this.factory = factory;
        this.sink = sink;
    }

    private record Key(long aHi, long aLo, long bHi, long bLo, int ports, int proto) {
    }

    /** One flow's state between records. */
    private static final class Flow {
        final Endpoints ab;
        final boolean initiatorB;
        long abPackets;
        long abBytes;
        long abFrames;
        long baPackets;
        long baBytes;
        long baFrames;
        int abFlags;
        int baFlags;
        long recStart;
        long lastSeen;
        long rtt = -1;
        boolean finA;
        boolean finB;
        boolean rst;

        Flow(Endpoints ab, boolean initiatorB) {
            this.ab = ab;
            this.initiatorB = initiatorB;
        }

        boolean closed() {
            return rst || finA && finB;
        }
    }

    /** Flows held now. */
    int size() {
        return flows.size();
    }

    /** Flows created since start. */
    long flowsCreated() {
        return created;
    }

    /** Flows ended early because {@code maxFlows} were held. */
    long evictions() {
        return evictions;
    }

    /**
     * Adds one drained entry.
     *
     * @param toWallNs added to the entry's kernel times to make them epoch ns
     */
    void merge(KernelFlowEntry e, long toWallNs) {
        Key key = new Key(e.aHi(), e.aLo(), e.bHi(), e.bLo(), e.aPort() << 16 | e.bPort(), e.proto());
        Flow f = flows.get(key);
        if (f == null) {
            if (flows.size() >= maxFlows) {
                evictions++;
                Iterator<Map.Entry<Key, Flow>> eldest = flows.entrySet().iterator();
                Flow old = eldest.next().getValue();
                eldest.remove();
                sink.accept(record(old, true));
            }
            f = new Flow(new Endpoints(e.proto(), IpAddresses.format(e.aHi(), e.aLo()), e.aPort(),
                    IpAddresses.format(e.bHi(), e.bLo()), e.bPort()), initiatorB(e));
            flows.put(key, f);
            created++;
        }
        f.abPackets += e.abPackets();
        f.abBytes += e.abIpBytes();
        f.abFrames += e.abFrameBytes();
        f.baPackets += e.baPackets();
        f.baBytes += e.baIpBytes();
        f.baFrames += e.baFrameBytes();
        f.abFlags |= e.abFlags();
        f.baFlags |= e.baFlags();
        f.finA |= (e.abFlags() & FIN) != 0;
        f.finB |= (e.baFlags() & FIN) != 0;
        f.rst |= ((e.abFlags() | e.baFlags()) & RST) != 0;
        long first = e.firstNs() + toWallNs;
        long last = e.lastNs() + toWallNs;
        if (f.recStart == 0 || first < f.recStart) {
            f.recStart = first;
        }
        if (last > f.lastSeen) {
            f.lastSeen = last;
        }
        if (e.rttMicros() >= 0) {
            f.rtt = e.rttMicros();
        }
    }

    /** The flow table's rule, applied to the entry's first packet (the first one ever, for a new flow). */
    private static boolean initiatorB(KernelFlowEntry e) {
        int sp = e.firstFromB() ? e.bPort() : e.aPort();
        int dp = e.firstFromB() ? e.aPort() : e.bPort();
        boolean senderInitiates = FlowTable.srcInitiates(e.tcp(), e.firstFlags(), sp, dp);
        return senderInitiates == e.firstFromB();
    }

    /** Ends or exports the flows whose timeouts have passed at {@code nowNs} (epoch ns). */
    void expire(long nowNs) {
        List<Flow> ended = new ArrayList<>();
        for (Iterator<Flow> it = flows.values().iterator(); it.hasNext(); ) {
            Flow f = it.next();
            long silent = nowNs - f.lastSeen;
            if (f.closed() && silent >= lingerNs || silent >= idleNs) {
                it.remove();
                ended.add(f);
            } else if (f.recStart != 0 && nowNs - f.recStart >= activeNs) {
                sink.accept(record(f, false));
                reset(f);
            }
        }
        ended.forEach(f -> sink.accept(record(f, true)));
    }

    /** Ends every flow with a final record; the table is empty afterwards. */
    void flushAll() {
        List<Flow> all = new ArrayList<>(flows.values());
        flows.clear();
        all.forEach(f -> sink.accept(record(f, true)));
    }

    private io.siteflow.model.FlowRecord record(Flow f, boolean isFinal) {
        Counters fromA = new Counters(f.abBytes, f.abPackets, f.abFrames, f.abFlags);
        Counters fromB = new Counters(f.baBytes, f.baPackets, f.baFrames, f.baFlags);
        long start = f.recStart != 0 ? f.recStart : f.lastSeen;
        return factory.build(f.ab, f.initiatorB, fromA, fromB, start, f.lastSeen, f.rtt >= 0 ? f.rtt : null,
                isFinal);
    }

    private static void reset(Flow f) {
        f.abPackets = 0;
        f.abBytes = 0;
        f.abFrames = 0;
        f.baPackets = 0;
        f.baBytes = 0;
        f.baFrames = 0;
        f.abFlags = 0;
        f.baFlags = 0;
        f.recStart = 0;
        f.rtt = -1;
    }
}
