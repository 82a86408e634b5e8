package io.siteflow.model;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * JSON codec of {@link FlowRecord}, schema 1, with Jackson's streaming API (no reflection). Field
 * names and their order are fixed by DESIGN.md. Unknown fields are skipped so that newer writers stay readable; an
 * {@code l7} name this version does not list is kept and written back as read ({@link FlowRecord#l7Text()}).
 * Thread-safe: the factory is shared, parsers and generators are per call.
 */
public final class FlowRecordJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    private FlowRecordJson() {
    }

    /** One record as a JSON object without a line break. */
    public static String toJson(FlowRecord r) {
        return new String(toBytes(r), StandardCharsets.UTF_8);
    }

    /** One record as UTF-8 JSON bytes. */
    public static byte[] toBytes(FlowRecord r) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(384);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            write(r, g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Writes one record as a JSON object to a generator the caller owns, fields in DESIGN.md's order. */
    public static void write(FlowRecord r, JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeNumberField("schema", r.schema());
        g.writeStringField("id", r.id());
        g.writeStringField("agent", r.agent());
        g.writeStringField("iface", r.iface());
        g.writeNumberField("start", r.start());
        g.writeNumberField("end", r.end());
        Endpoints e = r.endpoints();
        g.writeNumberField("proto", e.proto());
        g.writeStringField("src", e.src());
        g.writeNumberField("srcPort", e.srcPort());
        g.writeStringField("dst", e.dst());
        g.writeNumberField("dstPort", e.dstPort());
        Counters f = r.forward();
        Counters b = r.reverse();
        g.writeNumberField("bytes", f.bytes());
        g.writeNumberField("packets", f.packets());
        g.writeNumberField("rbytes", b.bytes());
        g.writeNumberField("rpackets", b.packets());
        g.writeNumberField("frameBytes", f.frameBytes());
        g.writeNumberField("rframeBytes", b.frameBytes());
        g.writeNumberField("tcpFlags", f.tcpFlags());
        g.writeNumberField("rtcpFlags", b.tcpFlags());
        if (r.rttMicros() != null) {
            g.writeNumberField("rttMicros", r.rttMicros());
        }
        if (r.dataRttMicros() != null) {
            g.writeNumberField("dataRttMicros", r.dataRttMicros());
        }
        String l7 = r.l7WireName();
        if (l7 != null) {
            g.writeStringField("l7", l7);
        }
        if (r.sni() != null) {
            g.writeStringField("sni", r.sni());
        }
        DbCalls db = r.db();
        if (db.calls() != 0) {
            g.writeNumberField("dbCalls", db.calls());
            g.writeNumberField("dbCallMicros", db.micros());
            g.writeObjectFieldStart("dbCallHistogram");
            for (var bucket : db.histogram().toMap().entrySet()) {
                g.writeNumberField(Integer.toString(bucket.getKey()), bucket.getValue());
            }
            g.writeEndObject();
        }
        if (r.exporter() != null) {
            g.writeStringField("exporter", r.exporter());
        }
        if (r.observationDomain() != null) {
            g.writeNumberField("observationDomain", r.observationDomain());
        }
        if (r.sampled() != null) {
            g.writeNumberField("sampled", r.sampled());
        }
        g.writeBooleanField("final", r.isFinal());
        g.writeEndObject();
    }

    /** Parses one record from UTF-8 JSON. */
    public static FlowRecord parse(byte[] json) throws FlowRecordFormatException {
        try (JsonParser p = FACTORY.createParser(json)) {
            return read(p);
        } catch (JsonProcessingException e) {
            throw new FlowRecordFormatException("not JSON: " + e.getOriginalMessage()
                    + " at byte " + e.getLocation().getByteOffset(), e);
        } catch (IOException e) {
            throw new FlowRecordFormatException("not JSON: " + e.getMessage(), e);
        }
    }

    /** Parses one record from a JSON string. */
    public static FlowRecord parse(String json) throws FlowRecordFormatException {
        return parse(json.getBytes(StandardCharsets.UTF_8));
    }

    private static FlowRecord read(JsonParser p) throws IOException, FlowRecordFormatException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            throw new FlowRecordFormatException("a flow record is a JSON object, found "
                    + describe(p.currentToken()));
        }
        Fields f = new Fields();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            f.set(name, t, p);
        }
        if (p.currentToken() != JsonToken.END_OBJECT) {
            throw new FlowRecordFormatException("unterminated JSON object");
        }
        if (p.nextToken() != null) {
            throw new FlowRecordFormatException("trailing data after the record at byte "
                    + p.currentTokenLocation().getByteOffset());
        }
        return f.build();
    }

    private static String describe(JsonToken t) {
        return t == null ? "nothing" : t.asString() == null ? t.name() : t.asString();
    }

    /** Field accumulator: tracks which required fields were seen. */
    private static final class Fields {
        private static final String[] REQUIRED = {"schema", "agent", "iface", "start", "end", "proto",
            "src", "srcPort", "dst", "dstPort", "bytes", "packets", "rbytes", "rpackets", "frameBytes",
            "rframeBytes", "tcpFlags", "rtcpFlags", "final", "id"};
        private int seen;
        private int schema;
        private int proto;
        private int srcPort;
        private int dstPort;
        private int tcpFlags;
        private int rtcpFlags;
        private long start;
        private long end;
        private long bytes;
        private long packets;
        private long rbytes;
        private long rpackets;
        private long frameBytes;
        private long rframeBytes;
        private Long rttMicros;
        private Long dataRttMicros;
        private String agent;
        private String iface;
        private String src;
        private String dst;
        private String l7;
        private String sni;
        private String id;
        private String exporter;
        private Long observationDomain;
        private Integer sampled;
        private boolean isFinal;
        private long dbCalls;
        private long dbCallMicros;
        private CallHistogram dbCallHistogram = CallHistogram.EMPTY;

        void set(String name, JsonToken t, JsonParser p) throws IOException, FlowRecordFormatException {
            switch (name) {
                case "schema" -> schema = (int) number(name, t, p, 1, Integer.MAX_VALUE);
                case "agent" -> agent = text(name, t, p);
                case "iface" -> iface = text(name, t, p);
                case "start" -> start = number(name, t, p, 0, Long.MAX_VALUE);
                case "end" -> end = number(name, t, p, 0, Long.MAX_VALUE);
                case "proto" -> proto = (int) number(name, t, p, 0, 255);
                case "src" -> src = text(name, t, p);
                case "srcPort" -> srcPort = (int) number(name, t, p, 0, 65535);
                case "dst" -> dst = text(name, t, p);
                case "dstPort" -> dstPort = (int) number(name, t, p, 0, 65535);
                case "bytes" -> bytes = number(name, t, p, 0, Long.MAX_VALUE);
                case "packets" -> packets = number(name, t, p, 0, Long.MAX_VALUE);
                case "rbytes" -> rbytes = number(name, t, p, 0, Long.MAX_VALUE);
                case "rpackets" -> rpackets = number(name, t, p, 0, Long.MAX_VALUE);
                case "frameBytes" -> frameBytes = number(name, t, p, 0, Long.MAX_VALUE);
                case "rframeBytes" -> rframeBytes = number(name, t, p, 0, Long.MAX_VALUE);
                case "tcpFlags" -> tcpFlags = (int) number(name, t, p, 0, 0xFFF);
                case "rtcpFlags" -> rtcpFlags = (int) number(name, t, p, 0, 0xFFF);
                case "rttMicros" -> rttMicros = t == JsonToken.VALUE_NULL ? null : number(name, t, p, 0, Long.MAX_VALUE);
                case "dataRttMicros" -> dataRttMicros = t == JsonToken.VALUE_NULL ? null : number(name, t, p, 0, Long.MAX_VALUE);
                case "l7" -> l7 = t == JsonToken.VALUE_NULL ? null : text(name, t, p);
                case "sni" -> sni = t == JsonToken.VALUE_NULL ? null : text(name, t, p);
                case "exporter" -> exporter = t == JsonToken.VALUE_NULL ? null : text(name, t, p);
                case "observationDomain" -> observationDomain = t == JsonToken.VALUE_NULL ? null
                        : number(name, t, p, 0, 0xFFFF_FFFFL);
                case "sampled" -> sampled = t == JsonToken.VALUE_NULL ? null : (int) number(name, t, p, 2, Integer.MAX_VALUE);
                case "final" -> isFinal = bool(name, t);
                case "id" -> id = text(name, t, p);
                case "dbCalls" -> dbCalls = number(name, t, p, 0, Long.MAX_VALUE);
                case "dbCallMicros" -> dbCallMicros = number(name, t, p, 0, Long.MAX_VALUE);
                case "dbCallHistogram" -> dbCallHistogram = histogram(t, p);
                default -> {
                    p.skipChildren();
                    return;
                }
            }
            markSeen(name);
        }

        private void markSeen(String name) {
            for (int i = 0; i < REQUIRED.length; i++) {
                if (REQUIRED[i].equals(name)) {
                    seen |= 1 << i;
                    return;
                }
            }
        }

        FlowRecord build() throws FlowRecordFormatException {
            for (int i = 0; i < REQUIRED.length; i++) {
                if ((seen & (1 << i)) == 0) {
                    throw new FlowRecordFormatException("missing field \"" + REQUIRED[i] + "\"");
                }
            }
            if (schema != FlowRecord.SCHEMA) {
                throw new FlowRecordFormatException("schema " + schema + " is not supported (expected "
                        + FlowRecord.SCHEMA + ")");
            }
            if (dbCallHistogram.total() != dbCalls) {
                throw new FlowRecordFormatException("field \"dbCallHistogram\": " + dbCallHistogram.total()
                        + " calls in the buckets, but dbCalls is " + dbCalls);
            }
            if (dbCalls == 0 && dbCallMicros != 0) {
                // the writer leaves the DB call fields out without calls: this time would vanish on writing
                throw new FlowRecordFormatException("field \"dbCallMicros\": " + dbCallMicros
                        + " without calls (dbCalls is 0)");
            }
            return FlowRecord.builder().schema(schema).id(id).agent(agent).iface(iface).time(start, end)
                    .endpoints(proto, src, srcPort, dst, dstPort)
                    .forward(bytes, packets, frameBytes, tcpFlags).reverse(rbytes, rpackets, rframeBytes, rtcpFlags)
                    .rttMicros(rttMicros).dataRttMicros(dataRttMicros).l7(l7).sni(sni)
                    .db(dbCalls, dbCallMicros, dbCallHistogram).exporter(exporter, observationDomain).sampled(sampled)
                    .isFinal(isFinal).build();
        }

        /** {@code {"<bucket>": count, ...}} over {@link CallHistogram}'s buckets. */
        private static CallHistogram histogram(JsonToken t, JsonParser p) throws IOException, FlowRecordFormatException {
            if (t != JsonToken.START_OBJECT) {
                throw new FlowRecordFormatException("field \"dbCallHistogram\": expected an object, found "
                        + describe(t));
            }
            java.util.Map<Integer, Long> m = new java.util.TreeMap<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                int bucket;
                try {
                    bucket = Integer.parseInt(key);
                } catch (NumberFormatException e) {
                    bucket = -1;
                }
                String field = "dbCallHistogram." + key;
                if (bucket < 0 || bucket > CallHistogram.LAST) {
                    throw new FlowRecordFormatException("field \"" + field + "\": not a bucket (0-"
                            + CallHistogram.LAST + ")");
                }
                m.put(bucket, number(field, p.nextToken(), p, 1, Long.MAX_VALUE));
            }
            return CallHistogram.of(m);
        }

        private static long number(String name, JsonToken t, JsonParser p, long min, long max)
                throws IOException, FlowRecordFormatException {
            if (t != JsonToken.VALUE_NUMBER_INT) {
                throw new FlowRecordFormatException("field \"" + name + "\": expected an integer, found "
                        + describe(t));
            }
            if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                throw new FlowRecordFormatException("field \"" + name + "\": " + p.getText() + " is out of range");
            }
            long v = p.getLongValue();
            if (v < min || v > max) {
                throw new FlowRecordFormatException("field \"" + name + "\": " + v + " is out of range ("
                        + min + "-" + max + ")");
            }
            return v;
        }

        private static String text(String name, JsonToken t, JsonParser p) throws IOException, FlowRecordFormatException {
            if (t != JsonToken.VALUE_STRING) {
                throw new FlowRecordFormatException("field \"" + name + "\": expected a string, found "
                        + describe(t));
            }
            return p.getText();
        }

        private static boolean bool(String name, JsonToken t) throws FlowRecordFormatException {
            if (t == JsonToken.VALUE_TRUE) {
                return true;
            }
            if (t == JsonToken.VALUE_FALSE) {
                return false;
            }
            throw new FlowRecordFormatException("field \"" + name + "\": expected true or false, found "
                    + describe(t));
        }
    }
}
