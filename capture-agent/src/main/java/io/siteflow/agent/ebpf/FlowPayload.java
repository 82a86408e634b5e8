package io.siteflow.agent.ebpf;

import io.siteflow.agent.decode.DecodeStatus;
import io.siteflow.agent.decode.Packet;
import io.siteflow.agent.decode.PacketDecoder;
import io.siteflow.agent.signature.SignatureL7Tracker;
import io.siteflow.model.CallHistogram;
import io.siteflow.model.DbCalls;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the {@code payloads} ring buffer gives one flow of the in-kernel source: its L7 protocol and TLS server name,
 * by the packet path's own decoder and {@link SignatureL7Tracker} on the frame bytes of each direction's first
 * payload segments, and its DB calls from the changes of direction (capture-agent/docs/ebpf.md "L7, SNI and DB
 * calls"). The rules are {@code flow.FlowTable}'s and {@code flow.DbCalls}': a payload segment is inspected while the
 * detection is not done; a flow becomes a DB flow (with call timing on) at the segment whose inspection names
 * {@code oracle-tns}, {@code postgresql} or {@code mysql}; from then on every change from a run of initiator payload
 * to a run of responder payload is one call, timed from the request run's last segment to the response run's first.
 * One per flow; not thread-safe.
 */
final class FlowPayload {
    /** {@link #verdict()}: not decided; the program keeps sending payload records. */
    static final int UNDECIDED = 0;
    /** A DB flow: the program sends only the changes of direction. */
    static final int DB = 1;
    /** Decided and no DB flow: the program sends nothing more. */
    static final int DONE = 2;
    private static final int ETHERNET = 1;
    private static final int TCP = 6;

    private int l7State;
    private String sni;
    private long dbSinceNs = -1;
    private long calls;
    private long micros;
    private final Map<Integer, Long> buckets = new TreeMap<>();
    private int verdictSent = UNDECIDED;

    FlowPayload(SignatureL7Tracker tracker) {
        this.l7State = tracker.initialState();
    }

    /**
     * Applies one record of this flow, in the order the kernel sent them.
     *
     * @param fromInitiator the record's segment went from the flow's initiator to its responder
     * @param callTiming    DB calls are timed ({@code FlowTableConfig.dbCallTiming})
     */
    void apply(KernelPayload r, boolean fromInitiator, Inspector in, boolean callTiming) {
        if (r.frame() != null && !in.tracker.done(l7State)) {
            Packet p = in.packet;
            if (in.decoder.decode(ETHERNET, r.frame(), 0, r.frame().length, r.wireLen(), p) == DecodeStatus.IP
                    && p.hasPorts && p.payloadCaptured > 0) {
                l7State = in.tracker.inspect(l7State, fromInitiator, p, r.frame());
                String name = in.tracker.lastSni();
                if (name != null && sni == null) {
                    sni = name;
                }
                if (callTiming && p.protocol == TCP && dbSinceNs < 0 && in.tracker.timesCalls(l7State)) {
                    dbSinceNs = r.tsNs();
                }
            }
        }
        if (r.runStart() && !fromInitiator && dbSinceNs >= 0 && r.prevNs() >= dbSinceNs) {
            long us = Math.max(0, (r.tsNs() - r.prevNs()) / 1000);
            calls++;
            micros += us;
            buckets.merge(CallHistogram.bucketOf(us), 1L, Long::sum);
        }
    }

    /** What the program should do with this flow's payload from now on: {@link #UNDECIDED}, {@link #DB}, {@link #DONE}. */
    int verdict(Inspector in) {
        if (!in.tracker.done(l7State)) {
            return UNDECIDED;
        }
        return dbSinceNs >= 0 ? DB : DONE;
    }

    /** The verdict last given to the program, then {@code v}; so each verdict is written once. */
    int swapVerdictSent(int v) {
        int old = verdictSent;
        verdictSent = v;
        return old;
    }

    String l7(Inspector in) {
        return in.tracker.protocol(l7State);
    }

    String sni() {
        return sni;
    }

    /** The calls of the current record. */
    DbCalls dbCalls() {
        return calls == 0 ? DbCalls.NONE : new DbCalls(calls, micros, CallHistogram.of(buckets));
    }

    /** After a record went out: its calls are counted. */
    void clearRecord() {
        calls = 0;
        micros = 0;
        buckets.clear();
    }

    /** The decoder and tracker every flow of one source shares (one thread). */
    static final class Inspector {
        final PacketDecoder decoder = new PacketDecoder();
        final Packet packet = new Packet();
        final SignatureL7Tracker tracker;

        /** @param keepSni false for {@code --no-sni} */
        Inspector(boolean keepSni) {
            this.tracker = new SignatureL7Tracker(keepSni);
        }
    }
}
