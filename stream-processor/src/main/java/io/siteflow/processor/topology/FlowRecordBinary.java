package io.siteflow.processor.topology;

import io.siteflow.model.CallHistogram;
import io.siteflow.model.Counters;
import io.siteflow.model.DbCalls;
import io.siteflow.model.Endpoints;
import io.siteflow.model.FlowRecord;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * The flow record as the topology passes it between its own steps (the {@code by-server} repartition topic): a
 * fixed binary layout, about half the JSON's size and several times faster to write and read. Agents and
 * every public topic keep the JSON of DESIGN.md; this format never leaves the application's internal topics.
 * Layout (fixed: running instances read each other's bytes; golden files beside the test pin it): the marker byte
 * {@value #MARKER}, a bit set of the null fields, then schema, agent, iface, start, end, proto, src, srcPort, dst,
 * dstPort, bytes, packets, rbytes, rpackets, frameBytes, rframeBytes, tcpFlags, rtcpFlags, rttMicros, l7 (as
 * {@link FlowRecord#l7WireName()}: an unlisted name passes through), sni, final, id, dataRttMicros, the DB calls
 * (ints and longs big-endian, strings as an int length and UTF-8 bytes, absent nullable fields omitted), then the
 * flow-export fields each behind a bit of its own that is set when the field is present (unlike the null bits):
 * exporter, observationDomain (long), sampled (int). Bytes written before those fields existed have the bits
 * clear and read as they did (flow-model/docs/contracts.md "Adding a field"). A value
 * starting with {@code '{'} is read as JSON (records an older version left on the topic). Stateless.
 */
final class FlowRecordBinary {
    static final byte MARKER = 1;
    private static final int RTT = 1;
    private static final int L7 = 2;
    private static final int SNI = 4;
    private static final int DATA_RTT = 8;
    /** Set (unlike the others) when DB calls follow: calls, their µs, bucket count, then bucket/count pairs. */
    private static final int DB_CALLS = 16;
    /** Set when the record names its exporter: its length and UTF-8 bytes follow the DB calls. */
    private static final int EXPORTER = 32;
    /** Set when the record has an observation domain: a long after the exporter. */
    private static final int DOMAIN = 64;
    /** Set when the record's counts are sampled: the rate, an int, last. */
    private static final int SAMPLED = 128;

    private FlowRecordBinary() {
    }

    static byte[] write(FlowRecord r) {
        Endpoints e = r.endpoints();
        Counters f = r.forward();
        Counters v = r.reverse();
        DbCalls db = r.db();
        byte[] agent = utf8(r.agent());
        byte[] iface = utf8(r.iface());
        byte[] src = utf8(e.src());
        byte[] dst = utf8(e.dst());
        byte[] id = utf8(r.id());
        byte[] l7 = r.l7WireName() == null ? null : utf8(r.l7WireName());
        byte[] sni = r.sni() == null ? null : utf8(r.sni());
        byte[] exporter = r.exporter() == null ? null : utf8(r.exporter());
        int nulls = (r.rttMicros() == null ? RTT : 0) | (l7 == null ? L7 : 0) | (sni == null ? SNI : 0)
                | (r.dataRttMicros() == null ? DATA_RTT : 0) | (db.calls() != 0 ? DB_CALLS : 0)
                | (exporter != null ? EXPORTER : 0) | (r.observationDomain() != null ? DOMAIN : 0)
                | (r.sampled() != null ? SAMPLED : 0);
        Map<Integer, Long> buckets = db.histogram().toMap();
        int size = 2 + 6 * 4 + 8 * 8 + 1 // marker, nulls; six ints; eight longs; isFinal
                + 4 * 5 + agent.length + iface.length + src.length + dst.length + id.length
                + (r.rttMicros() == null ? 0 : 8) + (l7 == null ? 0 : 4 + l7.length)
                + (sni == null ? 0 : 4 + sni.length) + (r.dataRttMicros() == null ? 0 : 8)
                + (db.calls() == 0 ? 0 : 8 + 8 + 4 + 12 * buckets.size())
                + (exporter == null ? 0 : 4 + exporter.length) + (r.observationDomain() == null ? 0 : 8)
                + (r.sampled() == null ? 0 : 4);
        ByteBuffer b = ByteBuffer.allocate(size);
        b.put(MARKER).put((byte) nulls).putInt(r.schema());
        put(b, agent);
        put(b, iface);
        b.putLong(r.start()).putLong(r.end()).putInt(e.proto());
        put(b, src);
        b.putInt(e.srcPort());
        put(b, dst);
        b.putInt(e.dstPort()).putLong(f.bytes()).putLong(f.packets()).putLong(v.bytes()).putLong(v.packets())
                .putLong(f.frameBytes()).putLong(v.frameBytes()).putInt(f.tcpFlags()).putInt(v.tcpFlags());
        if (r.rttMicros() != null) {
            b.putLong(r.rttMicros());
        }
        if (l7 != null) {
            put(b, l7);
        }
        if (sni != null) {
            put(b, sni);
        }
        b.put((byte) (r.isFinal() ? 1 : 0));
        put(b, id);
        if (r.dataRttMicros() != null) {
            b.putLong(r.dataRttMicros());
        }
        if (db.calls() != 0) {
            b.putLong(db.calls()).putLong(db.micros()).putInt(buckets.size());
            buckets.forEach((k, n) -> b.putInt(k).putLong(n));
        }
        if (exporter != null) {
            put(b, exporter);
        }
        if (r.observationDomain() != null) {
            b.putLong(r.observationDomain());
        }
        if (r.sampled() != null) {
            b.putInt(r.sampled());
        }
        return b.array();
    }

    /** @throws IllegalArgumentException when the bytes are not a record of this layout */
    static FlowRecord read(byte[] bytes) {
        try {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            if (b.get() != MARKER) {
                throw new IllegalArgumentException("not a binary flow record (first byte " + bytes[0] + ")");
            }
            int nulls = b.get();
            FlowRecord.Builder r = FlowRecord.builder().schema(b.getInt()).agent(string(b)).iface(string(b))
                    .time(b.getLong(), b.getLong());
            int proto = b.getInt();
            String src = string(b);
            int srcPort = b.getInt();
            r.endpoints(proto, src, srcPort, string(b), b.getInt());
            long bytesOut = b.getLong();
            long packets = b.getLong();
            long rbytes = b.getLong();
            long rpackets = b.getLong();
            long frameBytes = b.getLong();
            long rframeBytes = b.getLong();
            r.forward(bytesOut, packets, frameBytes, b.getInt()).reverse(rbytes, rpackets, rframeBytes, b.getInt());
            r.rttMicros((nulls & RTT) != 0 ? null : b.getLong());
            r.l7((nulls & L7) != 0 ? null : string(b));
            r.sni((nulls & SNI) != 0 ? null : string(b));
            r.isFinal(b.get() != 0).id(string(b));
            r.dataRttMicros((nulls & DATA_RTT) != 0 ? null : b.getLong());
            if ((nulls & DB_CALLS) != 0) {
                r.db(dbCalls(b));
            }
            r.exporter((nulls & EXPORTER) == 0 ? null : string(b), (nulls & DOMAIN) == 0 ? null : b.getLong());
            r.sampled((nulls & SAMPLED) == 0 ? null : b.getInt());
            if (b.hasRemaining()) {
                throw new IllegalArgumentException(b.remaining() + " bytes after the record");
            }
            return r.build();
        } catch (BufferUnderflowException | IndexOutOfBoundsException | NegativeArraySizeException e) {
            throw new IllegalArgumentException("binary flow record cut short (" + bytes.length + " bytes)", e);
        }
    }

    /** The DB calls block: calls, their µs, bucket count, then bucket/count pairs. */
    private static DbCalls dbCalls(ByteBuffer b) {
        long calls = b.getLong();
        long callMicros = b.getLong();
        Map<Integer, Long> m = new TreeMap<>();
        for (int i = b.getInt(); i > 0; i--) {
            m.put(b.getInt(), b.getLong());
        }
        CallHistogram hist = CallHistogram.of(m);
        // the writer sets the bit only for calls > 0, and the JSON codec's rule holds here too: a block
        // that would not write back the same is not one this layout wrote
        if (calls <= 0 || callMicros < 0) {
            throw new IllegalArgumentException("DB calls block with dbCalls " + calls + " and dbCallMicros "
                    + callMicros + " (a block is written only for dbCalls > 0, dbCallMicros >= 0)");
        }
        if (hist.total() != calls) {
            throw new IllegalArgumentException(hist.total() + " calls in the buckets, but dbCalls is " + calls);
        }
        return new DbCalls(calls, callMicros, hist);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void put(ByteBuffer b, byte[] s) {
        b.putInt(s.length).put(s);
    }

    private static String string(ByteBuffer b) {
        int n = b.getInt();
        String s = new String(b.array(), b.position(), n, StandardCharsets.UTF_8);
        b.position(b.position() + n);
        return s;
    }
}
