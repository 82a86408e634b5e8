package io.siteflow.model;

import java.util.Objects;

/**
 * One flow record, schema 1 (DESIGN.md, "Flow record"). A record carries the <em>delta</em> since the
 * previous record of the same flow, so sums over records are exact totals.
 *
 * <p>{@code src} is the initiator. Byte counts are IP bytes (outer IP header + payload, from the IP
 * total length), frame counts are link-layer wire lengths (pcap {@code orig_len}). Times are epoch
 * milliseconds of the first and last packet in this record. {@code rttMicros}, {@code l7} and
 * {@code sni} are null when not known; every other field is always present. Immutable and
 * thread-safe.
 *
 * @param schema      always {@link #SCHEMA}
 * @param agent       the agent id that observed the flow
 * @param iface       the interface or capture file name
 * @param start       epoch ms of the first packet in this record
 * @param end         epoch ms of the last packet in this record
 * @param proto       IANA protocol number (6 TCP, 17 UDP, 1 ICMP, 58 ICMPv6, ...)
 * @param src         initiator address, textual (IPv4 dotted quad or compressed IPv6)
 * @param srcPort     initiator port, 0 for protocols without ports
 * @param dst         responder address
 * @param dstPort     responder port, 0 for protocols without ports
 * @param bytes       IP bytes src to dst
 * @param packets     packets src to dst
 * @param rbytes      IP bytes dst to src
 * @param rpackets    packets dst to src
 * @param frameBytes  link-layer wire bytes src to dst
 * @param rframeBytes link-layer wire bytes dst to src
 * @param tcpFlags    OR of the TCP flags sent by src (0 for other protocols)
 * @param rtcpFlags   OR of the TCP flags sent by dst
 * @param rttMicros   handshake round-trip time in microseconds, or null when no handshake was seen
 * @param l7          detected application protocol ({@link L7Protocol#wireName()}), or null
 * @param sni         TLS server name from the ClientHello, or null (always null when the agent runs with
 *                    {@code --no-sni}): the one field read from packet payload; see flow-model/docs/contracts.md
 * @param isFinal     true when the flow ended (FIN/RST, idle timeout, eviction or end of capture)
 * @param id          unique record id: agent run id + per-agent counter
 * @param dataRttMicros smallest round-trip time in microseconds measured in this record from data segments
 *                    and the ACKs that cover them (both halves, as seen at the capture point), or null
 * @param dbCalls     DB calls whose first response segment fell in this record (0 on flows that are not
 *                    {@code oracle-tns}, {@code postgresql} or {@code mysql}); a call is one run of initiator
 *                    payload followed by a run of responder payload
 * @param dbCallMicros sum of those calls' times in µs, each from the last request segment to the first response
 *                    segment as seen at the capture point
 * @param dbCallHistogram those calls' times over the fixed {@link CallHistogram} buckets, never null
 *                    ({@link CallHistogram#EMPTY} without calls); its total is {@code dbCalls}
 */
public record FlowRecord(
        int schema,
        String agent,
        String iface,
        long start,
        long end,
        int proto,
        String src,
        int srcPort,
        String dst,
        int dstPort,
        long bytes,
        long packets,
        long rbytes,
        long rpackets,
        long frameBytes,
        long rframeBytes,
        int tcpFlags,
        int rtcpFlags,
        Long rttMicros,
        String l7,
        String sni,
        boolean isFinal,
        String id,
        Long dataRttMicros,
        long dbCalls,
        long dbCallMicros,
        CallHistogram dbCallHistogram) {

    /** The schema version this class reads and writes. */
    public static final int SCHEMA = 1;

    public FlowRecord {
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(iface, "iface");
        Objects.requireNonNull(src, "src");
        Objects.requireNonNull(dst, "dst");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(dbCallHistogram, "dbCallHistogram");
    }

    /** A record without DB calls. */
    public FlowRecord(int schema, String agent, String iface, long start, long end, int proto, String src,
            int srcPort, String dst, int dstPort, long bytes, long packets, long rbytes, long rpackets,
            long frameBytes, long rframeBytes, int tcpFlags, int rtcpFlags, Long rttMicros, String l7, String sni,
            boolean isFinal, String id, Long dataRttMicros) {
        this(schema, agent, iface, start, end, proto, src, srcPort, dst, dstPort, bytes, packets, rbytes,
                rpackets, frameBytes, rframeBytes, tcpFlags, rtcpFlags, rttMicros, l7, sni, isFinal, id,
                dataRttMicros, 0, 0, CallHistogram.EMPTY);
    }

    /** A record without a data-segment RTT sample. */
    public FlowRecord(int schema, String agent, String iface, long start, long end, int proto, String src,
            int srcPort, String dst, int dstPort, long bytes, long packets, long rbytes, long rpackets,
            long frameBytes, long rframeBytes, int tcpFlags, int rtcpFlags, Long rttMicros, String l7, String sni,
            boolean isFinal, String id) {
        this(schema, agent, iface, start, end, proto, src, srcPort, dst, dstPort, bytes, packets, rbytes,
                rpackets, frameBytes, rframeBytes, tcpFlags, rtcpFlags, rttMicros, l7, sni, isFinal, id, null);
    }

    /** IP bytes in both directions. */
    public long totalBytes() {
        return bytes + rbytes;
    }

    /** Packets in both directions. */
    public long totalPackets() {
        return packets + rpackets;
    }

    /** The detected protocol as an enum, {@link L7Protocol#UNKNOWN} when absent. */
    public L7Protocol l7Protocol() {
        return L7Protocol.fromWireName(l7);
    }
}
