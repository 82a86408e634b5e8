package io.siteflow.agent.ebpf;

import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTable;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.RecordFactory;
import io.siteflow.model.Counters;
import io.siteflow.model.DbCalls;
import io.siteflow.model.Endpoints;
import io.siteflow.model.IpAddresses;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The user-space half of the in-kernel aggregation: takes the entries drained from the program's map (each one
 * flow's counts since the last drain) and turns them into flow records with the agent's rules
 * (capture-agent/docs/ebpf.md): the initiator from the flow's first packet ({@link FlowTable#srcInitiates}), an
 * interim record once the active timeout has passed since the record's first packet, a final one on idle timeout,
 * after FIN from both ends or RST plus the close linger, on eviction beyond {@code maxFlows} and at
 * {@link #flushAll}. Every record carries the delta since the previous one. Times are epoch ns. The records of the
 * {@code payloads} ring buffer ({@link #payload}) give each flow its L7 protocol, TLS server name and DB calls
 * ({@link FlowPayload}); a record of a flow whose entry comes only with the next drain waits for it ({@link #settle}).
 * What the program should do with a flow's payload from then on, and the end of a flow, go to {@link Decisions}.
 * One thread.
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
    private final FlowPayload.Inspector inspector;
    private final boolean callTiming;
    private final Decisions decisions;
    /** Payload records of flows not drained yet, with the settle round they arrived in. */
    private final Map<Key, ArrayDeque<KernelPayload>> waiting = new HashMap<>();
    private final Map<Key, Long> waitingSince = new HashMap<>();
    private final Set<Flow> touched = new LinkedHashSet<>();
    private long settles;
    private long created;
    private long evictions;
    private long payloadUnmatched;

    /** Where the user-space half tells the program about a flow's payload. */
    interface Decisions {
        /** From now on the program sends for this flow: {@link FlowPayload#DB} changes of direction only, or nothing. */
        void verdict(Key key, int verdict);

        /** The flow ended: the program forgets its payload state (a new flow on the key starts afresh). */
        void ended(Key key);

        Decisions NONE = new Decisions() {
            @Override
            public void verdict(Key key, int verdict) {
            }

            @Override
            public void ended(Key key) {
            }
        };
    }

    KernelFlows(FlowTableConfig config, RecordFactory factory, FlowSink sink) {
        this(config, factory, sink, true, Decisions.NONE);
    }

    /** @param keepSni false for {@code --no-sni} */
    KernelFlows(FlowTableConfig config, RecordFactory factory, FlowSink sink, boolean keepSni, Decisions decisions) {
        this.activeNs = config.activeTimeout().toNanos();
        this.idleNs = config.idleTimeout().toNanos();
        this.lingerNs = config.closeLinger().toNanos();
        this.maxFlows = config.maxFlows();
        this.factory = factory;
        this.sink = sink;
        this.inspector = new FlowPayload.Inspector(keepSni);
        this.callTiming = config.dbCallTiming();
        this.decisions = decisions;
    }

    /** A flow's key as the program's {@code struct flow_key}: side a the lower end, ports {@code a << 16 | b}. */
    record Key(long aHi, long aLo, long bHi, long bLo, int ports, int proto) {
        static Key of(KernelPayload r) {
            return new Key(r.aHi(), r.aLo(), r.bHi(), r.bLo(), r.aPort() << 16 | r.bPort(), r.proto());
        }
    }

    /** One flow's state between records. */
    private static final class Flow {
        final Key key;
        final Endpoints ab;
        final boolean initiatorB;
        FlowPayload payload;
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
        /** The smallest data-segment RTT of the entries merged into this record, -1 when none. */
        long dataRtt = -1;
        boolean finA;
        boolean finB;
        boolean rst;

        Flow(Key key, Endpoints ab, boolean initiatorB) {
            this.key = key;
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

    /** Payload records dropped because no flow entry came for them within two drains. */
    long payloadUnmatched() {
        return payloadUnmatched;
    }

    /**
     * Adds one record of the {@code payloads} ring buffer, in the order the kernel sent them; a record whose flow
     * has not been drained yet waits for it.
     */
    void payload(KernelPayload r) {
        Key key = Key.of(r);
        Flow f = flows.get(key);
        ArrayDeque<KernelPayload> queue = waiting.get(key);
        if (f == null || queue != null) {
            if (queue == null) {
                queue = new ArrayDeque<>();
                waiting.put(key, queue);
                waitingSince.put(key, settles);
            }
            queue.add(r);
            if (f != null) {
                replay(key, f);
            }
            return;
        }
        apply(f, r);
    }

    private void apply(Flow f, KernelPayload r) {
        if (f.payload == null) {
            f.payload = new FlowPayload(inspector.tracker);
        }
        f.payload.apply(r, r.fromB() == f.initiatorB, inspector, callTiming);
        touched.add(f);
    }

    private void replay(Key key, Flow f) {
        ArrayDeque<KernelPayload> queue = waiting.remove(key);
        waitingSince.remove(key);
        if (queue != null) {
            queue.forEach(r -> apply(f, r));
        }
    }

    /**
     * After a drain: the waiting records of flows drained now are applied (those older than two drains are dropped,
     * counted in {@link #payloadUnmatched}), and each flow whose verdict changed is told to the program.
     */
    void settle() {
        settles++;
        for (Iterator<Map.Entry<Key, ArrayDeque<KernelPayload>>> it = waiting.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key, ArrayDeque<KernelPayload>> e = it.next();
            Flow f = flows.get(e.getKey());
            if (f != null) {
                e.getValue().forEach(r -> apply(f, r));
            } else if (settles - waitingSince.get(e.getKey()) <= 2) {
                continue;
            } else {
                payloadUnmatched += e.getValue().size();
            }
            waitingSince.remove(e.getKey());
            it.remove();
        }
        for (Flow f : touched) {
            int v = f.payload.verdict(inspector);
            if (v != FlowPayload.UNDECIDED && f.payload.swapVerdictSent(v) != v) {
                decisions.verdict(f.key, v);
            }
        }
        touched.clear();
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
                end(old);
            }
            f = new Flow(key, new Endpoints(e.proto(), IpAddresses.format(e.aHi(), e.aLo()), e.aPort(),
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
        if (e.dataRttMicros() >= 0 && (f.dataRtt < 0 || e.dataRttMicros() < f.dataRtt)) {
            f.dataRtt = e.dataRttMicros();
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
        ended.forEach(this::end);
    }

    private void end(Flow f) {
        sink.accept(record(f, true));
        touched.remove(f);
        if (f.payload != null) {
            decisions.ended(f.key);
        }
    }

    /** Ends every flow with a final record; the table is empty afterwards. */
    void flushAll() {
        List<Flow> all = new ArrayList<>(flows.values());
        flows.clear();
        all.forEach(this::end);
    }

    private io.siteflow.model.FlowRecord record(Flow f, boolean isFinal) {
        Counters fromA = new Counters(f.abBytes, f.abPackets, f.abFrames, f.abFlags);
        Counters fromB = new Counters(f.baBytes, f.baPackets, f.baFrames, f.baFlags);
        long start = f.recStart != 0 ? f.recStart : f.lastSeen;
        Long rtt = f.rtt >= 0 ? f.rtt : null;
        Long dataRtt = f.dataRtt >= 0 ? f.dataRtt : null;
        if (f.payload == null) {
            return factory.build(f.ab, f.initiatorB, fromA, fromB, start, f.lastSeen, rtt, dataRtt, null, null,
                    DbCalls.NONE, isFinal);
        }
        io.siteflow.model.FlowRecord r = factory.build(f.ab, f.initiatorB, fromA, fromB, start, f.lastSeen, rtt,
                dataRtt, f.payload.l7(inspector), f.payload.sni(), f.payload.dbCalls(), isFinal);
        f.payload.clearRecord();
        return r;
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
        f.dataRtt = -1;
    }
}
