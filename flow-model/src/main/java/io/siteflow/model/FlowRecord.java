package io.siteflow.model;

import java.util.Objects;

/**
 * One flow record, schema 1 (DESIGN.md, "Flow record"). A record carries the <em>delta</em> since the
 * previous record of the same flow, so sums over records are exact totals.
 *
 * <p>The components are in the order {@link FlowRecordJson} writes them; the ends, each direction's counters
 * and the DB calls are groups of their own ({@link Endpoints}, {@link Counters}, {@link DbCalls}), and the
 * one-line accessors below ({@link #src()}, {@link #bytes()}, {@link #rbytes()}, {@link #dbCalls()}, ...) read
 * through them. Build one with {@link #builder()}; adding a field is a component, its builder setter (both
 * here) and its codecs (flow-model/docs/contracts.md "Adding a field"). {@code rttMicros},
 * {@code dataRttMicros} and {@code sni} are null when not known; every other component is never null.
 * Immutable and thread-safe.
 *
 * @param schema        always {@link #SCHEMA}
 * @param id            unique record id: agent run id + per-agent counter
 * @param agent         the agent id that observed the flow
 * @param iface         the interface or capture file name
 * @param start         epoch ms of the first packet in this record
 * @param end           epoch ms of the last packet in this record
 * @param endpoints     protocol, initiator ({@code src}) and responder ({@code dst})
 * @param forward       what src sent to dst
 * @param reverse       what dst sent to src
 * @param rttMicros     handshake round-trip time in microseconds, or null when no handshake was seen
 * @param dataRttMicros smallest round-trip time in microseconds measured in this record from data segments
 *                      and the ACKs that cover them (both halves, as seen at the capture point), or null
 * @param l7            detected application protocol, {@link L7Protocol#UNKNOWN} when none was detected or the
 *                      name read is not one this version lists
 * @param l7Text        the {@code l7} name exactly as read when it is not the wire name of a listed protocol
 *                      (a newer agent's {@code "redis"}, {@code "unknown"}, {@code "Oracle-TNS"}), so that a
 *                      reader writes back what it read; else null. {@link L7Protocol#fromWireName} of it is
 *                      {@code l7}; the wire name of {@code l7} itself is normalised to null
 * @param sni           TLS server name from the ClientHello, or null (always null when the agent runs with
 *                      {@code --no-sni}): the one field read from packet payload; see flow-model/docs/contracts.md
 * @param db            the DB calls of this record, {@link DbCalls#NONE} on flows that are not {@code oracle-tns},
 *                      {@code postgresql} or {@code mysql}
 * @param exporter      the address of the router or probe that exported the flow ({@code siteflow collect}:
 *                      NetFlow v5/v9, IPFIX), or null for the agent's own records
 * @param observationDomain the exporter's observation domain (IPFIX), source id (NetFlow v9) or engine type and id
 *                      ({@code type << 8 | id}, NetFlow v5), 0 to 2^32 - 1; null when {@code exporter} is
 * @param sampled       the sampling rate N (1 in N packets) the exporter's counts were multiplied by, at least 2;
 *                      null when the counts are not sampled (every packet was counted)
 * @param isFinal       true when the flow ended (FIN/RST, idle timeout, eviction or end of capture)
 * @throws NullPointerException     when a component that is never null is null (the message names it)
 * @throws IllegalArgumentException when {@code l7Text} names another protocol than {@code l7}
 */
public record FlowRecord(
        int schema,
        String id,
        String agent,
        String iface,
        long start,
        long end,
        Endpoints endpoints,
        Counters forward,
        Counters reverse,
        Long rttMicros,
        Long dataRttMicros,
        L7Protocol l7,
        String l7Text,
        String sni,
        DbCalls db,
        String exporter,
        Long observationDomain,
        Integer sampled,
        boolean isFinal) {

    /** The schema version this class reads and writes. */
    public static final int SCHEMA = 1;

    public FlowRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(iface, "iface");
        Objects.requireNonNull(endpoints, "endpoints");
        Objects.requireNonNull(forward, "forward");
        Objects.requireNonNull(reverse, "reverse");
        Objects.requireNonNull(l7, "l7");
        Objects.requireNonNull(db, "db");
        if (observationDomain != null && (observationDomain < 0 || observationDomain > 0xFFFF_FFFFL)) {
            throw new IllegalArgumentException("observationDomain " + observationDomain + " is not 0-4294967295");
        }
        if (sampled != null && sampled < 2) {
            throw new IllegalArgumentException("sampled " + sampled + " is not a sampling rate (2 or more)");
        }
        if (l7Text != null) {
            L7Protocol named = L7Protocol.fromWireName(l7Text);
            if (named != l7) {
                throw new IllegalArgumentException("l7Text \"" + l7Text + "\" names " + named + ", not " + l7);
            }
            if (l7 != L7Protocol.UNKNOWN && l7Text.equals(l7.wireName())) {
                l7Text = null;
            }
        }
    }

    /** A record without the flow-export fields ({@code exporter}, {@code observationDomain}, {@code sampled}). */
    public FlowRecord(int schema, String id, String agent, String iface, long start, long end, Endpoints endpoints,
            Counters forward, Counters reverse, Long rttMicros, Long dataRttMicros, L7Protocol l7, String l7Text,
            String sni, DbCalls db, boolean isFinal) {
        this(schema, id, agent, iface, start, end, endpoints, forward, reverse, rttMicros, dataRttMicros, l7, l7Text,
                sni, db, null, null, null, isFinal);
    }

    /** A builder with {@link #SCHEMA}, zero counters, nothing optional, no DB calls, not final. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this record's values. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** The {@code l7} name the codecs write: {@link #l7Text()} when set, else the wire name, null for none. */
    public String l7WireName() {
        return l7Text != null ? l7Text : l7 == L7Protocol.UNKNOWN ? null : l7.wireName();
    }

    /** The detected protocol; the same as {@link #l7()}. */
    public L7Protocol l7Protocol() {
        return l7;
    }

    /** IP bytes in both directions. */
    public long totalBytes() {
        return forward.bytes() + reverse.bytes();
    }

    /** Packets in both directions. */
    public long totalPackets() {
        return forward.packets() + reverse.packets();
    }

    /** IANA protocol number. */
    public int proto() {
        return endpoints.proto();
    }

    /** Initiator address. */
    public String src() {
        return endpoints.src();
    }

    /** Initiator port, 0 for protocols without ports. */
    public int srcPort() {
        return endpoints.srcPort();
    }

    /** Responder address. */
    public String dst() {
        return endpoints.dst();
    }

    /** Responder port, 0 for protocols without ports. */
    public int dstPort() {
        return endpoints.dstPort();
    }

    /** IP bytes src to dst. */
    public long bytes() {
        return forward.bytes();
    }

    /** Packets src to dst. */
    public long packets() {
        return forward.packets();
    }

    /** IP bytes dst to src. */
    public long rbytes() {
        return reverse.bytes();
    }

    /** Packets dst to src. */
    public long rpackets() {
        return reverse.packets();
    }

    /** Link-layer wire bytes src to dst. */
    public long frameBytes() {
        return forward.frameBytes();
    }

    /** Link-layer wire bytes dst to src. */
    public long rframeBytes() {
        return reverse.frameBytes();
    }

    /** OR of the TCP flags sent by src. */
    public int tcpFlags() {
        return forward.tcpFlags();
    }

    /** OR of the TCP flags sent by dst. */
    public int rtcpFlags() {
        return reverse.tcpFlags();
    }

    /** DB calls in this record. */
    public long dbCalls() {
        return db.calls();
    }

    /** Sum of those calls' times in µs. */
    public long dbCallMicros() {
        return db.micros();
    }

    /** Those calls' times over the {@link CallHistogram} buckets, never null. */
    public CallHistogram dbCallHistogram() {
        return db.histogram();
    }

    /**
     * Builds a {@link FlowRecord}; every setter overwrites. {@link #build()} fails like the record's constructor
     * (null {@code id}, {@code agent}, {@code iface} or endpoints). Not thread-safe.
     */
    public static final class Builder {
        private int schema = SCHEMA;
        private String id;
        private String agent;
        private String iface;
        private long start;
        private long end;
        private Endpoints endpoints;
        private Counters forward = Counters.NONE;
        private Counters reverse = Counters.NONE;
        private Long rttMicros;
        private Long dataRttMicros;
        private L7Protocol l7 = L7Protocol.UNKNOWN;
        private String l7Text;
        private String sni;
        private DbCalls db = DbCalls.NONE;
        private String exporter;
        private Long observationDomain;
        private Integer sampled;
        private boolean isFinal;

        private Builder() {
        }

        private Builder(FlowRecord r) {
            schema = r.schema;
            id = r.id;
            agent = r.agent;
            iface = r.iface;
            start = r.start;
            end = r.end;
            endpoints = r.endpoints;
            forward = r.forward;
            reverse = r.reverse;
            rttMicros = r.rttMicros;
            dataRttMicros = r.dataRttMicros;
            l7 = r.l7;
            l7Text = r.l7Text;
            sni = r.sni;
            db = r.db;
            exporter = r.exporter;
            observationDomain = r.observationDomain;
            sampled = r.sampled;
            isFinal = r.isFinal;
        }

        public Builder schema(int schema) {
            this.schema = schema;
            return this;
        }

        public Builder id(String id) {
            this.id = id;
            return this;
        }

        public Builder agent(String agent) {
            this.agent = agent;
            return this;
        }

        public Builder iface(String iface) {
            this.iface = iface;
            return this;
        }

        /** Epoch ms of the first and the last packet in this record. */
        public Builder time(long start, long end) {
            this.start = start;
            this.end = end;
            return this;
        }

        public Builder endpoints(Endpoints endpoints) {
            this.endpoints = endpoints;
            return this;
        }

        public Builder endpoints(int proto, String src, int srcPort, String dst, int dstPort) {
            return endpoints(new Endpoints(proto, src, srcPort, dst, dstPort));
        }

        /** What src sent to dst. */
        public Builder forward(Counters forward) {
            this.forward = forward;
            return this;
        }

        /** What src sent to dst. */
        public Builder forward(long bytes, long packets, long frameBytes, int tcpFlags) {
            return forward(new Counters(bytes, packets, frameBytes, tcpFlags));
        }

        /** What dst sent to src. */
        public Builder reverse(Counters reverse) {
            this.reverse = reverse;
            return this;
        }

        /** What dst sent to src. */
        public Builder reverse(long bytes, long packets, long frameBytes, int tcpFlags) {
            return reverse(new Counters(bytes, packets, frameBytes, tcpFlags));
        }

        /** Handshake RTT in µs, null when not seen. */
        public Builder rttMicros(Long rttMicros) {
            this.rttMicros = rttMicros;
            return this;
        }

        /** Smallest data-segment RTT in µs, null when not measured. */
        public Builder dataRttMicros(Long dataRttMicros) {
            this.dataRttMicros = dataRttMicros;
            return this;
        }

        /** A detected protocol ({@link L7Protocol#UNKNOWN} for none). */
        public Builder l7(L7Protocol l7) {
            this.l7 = Objects.requireNonNull(l7, "l7");
            this.l7Text = null;
            return this;
        }

        /** The {@code l7} name as read from the wire, kept as written when it is no listed wire name; null: none. */
        public Builder l7(String wireName) {
            this.l7 = L7Protocol.fromWireName(wireName);
            this.l7Text = wireName;
            return this;
        }

        /** TLS server name, null when not known. */
        public Builder sni(String sni) {
            this.sni = sni;
            return this;
        }

        public Builder db(DbCalls db) {
            this.db = db;
            return this;
        }

        public Builder db(long calls, long micros, CallHistogram histogram) {
            return db(new DbCalls(calls, micros, histogram));
        }

        /** The exporting router's address and observation domain; both null for the agent's own records. */
        public Builder exporter(String exporter, Long observationDomain) {
            this.exporter = exporter;
            this.observationDomain = observationDomain;
            return this;
        }

        /** The sampling rate the counts were scaled by (2 or more), null when not sampled. */
        public Builder sampled(Integer sampled) {
            this.sampled = sampled;
            return this;
        }

        public Builder isFinal(boolean isFinal) {
            this.isFinal = isFinal;
            return this;
        }

        public FlowRecord build() {
            return new FlowRecord(schema, id, agent, iface, start, end, endpoints, forward, reverse, rttMicros,
                    dataRttMicros, l7, l7Text, sni, db, exporter, observationDomain, sampled, isFinal);
        }
    }
}
