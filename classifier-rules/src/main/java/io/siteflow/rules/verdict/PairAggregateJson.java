package io.siteflow.rules.verdict;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.siteflow.rules.model.Category;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON form of a {@link PairAggregate}, so that it can live in a state store or travel on a topic:
 * {@code {"records": n, "categories": {...}, "addresses": {...}, "rtt": {"max": m, "rounded": b,
 * "counts": {"6500": 3}}, "dbConnections": {"key": [first, last]}, "topFlows": [...], "dbCalls": {"calls": n,
 * "micros": s, "first": ms, "last": ms, "histogram": {"454": 2}, "rtt": {...}}, "sampled": {"sampling": N,
 * "dbSquares": q, "otherSquares": q}, "exporters": {"records": n, "bytes": b}}} ({@code sampled} only when a
 * sampled record was added: {@link SampledEstimate}; {@code exporters} only when an exporter's record was compared:
 * {@link PairAggregate#compareExporter}). Reading what was
 * written gives an aggregate that behaves identically. Thread-safe.
 */
public final class PairAggregateJson {
    private PairAggregateJson() {
    }

    public static byte[] toBytes(PairAggregate a) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        try (JsonGenerator g = VerdictJson.FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("records", a.records);
            g.writeObjectFieldStart("categories");
            for (Category c : Category.all()) {
                if (a.bytes(c) != 0) {
                    g.writeNumberField(c.name(), a.bytes(c));
                }
            }
            g.writeEndObject();
            g.writeObjectFieldStart("addresses");
            for (Map.Entry<String, Long> e : a.addressBytes.entrySet()) {
                g.writeNumberField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
            writeRtt("rtt", a.rtt, g);
            g.writeObjectFieldStart("dbConnections");
            for (Map.Entry<String, long[]> e : new TreeMap<>(a.dbConnections.lifetimes()).entrySet()) {
                g.writeArrayFieldStart(e.getKey());
                g.writeNumber(e.getValue()[0]);
                g.writeNumber(e.getValue()[1]);
                g.writeEndArray();
            }
            g.writeEndObject();
            g.writeArrayFieldStart("topFlows");
            for (TopFlow f : a.topFlows.all()) {
                VerdictJson.writeTopFlow(f, g);
            }
            g.writeEndArray();
            writeDbCalls(a.dbCalls, g);
            if (a.sampling != 0) {
                g.writeObjectFieldStart("sampled");
                g.writeNumberField("sampling", a.sampling);
                g.writeNumberField("dbSquares", a.dbSquares);
                g.writeNumberField("otherSquares", a.otherSquares);
                g.writeEndObject();
            }
            if (a.exporterRecords != 0) {
                g.writeObjectFieldStart("exporters");
                g.writeNumberField("records", a.exporterRecords);
                g.writeNumberField("bytes", a.exporterBytes);
                g.writeEndObject();
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void writeRtt(String name, RttHistogram rtt, JsonGenerator g) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeNumberField("max", rtt.max());
        g.writeBooleanField("rounded", rtt.rounded());
        g.writeObjectFieldStart("counts");
        for (Map.Entry<Long, Long> e : rtt.counts().entrySet()) {
            g.writeNumberField(Long.toString(e.getKey()), e.getValue());
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    /** {@code "dbCalls": {"calls", "micros", "first", "last", "histogram": {bucket: count}, "rtt": {...}}}. */
    private static void writeDbCalls(DbCallStats d, JsonGenerator g) throws IOException {
        g.writeObjectFieldStart("dbCalls");
        g.writeNumberField("calls", d.calls);
        g.writeNumberField("micros", d.micros);
        g.writeNumberField("first", d.first);
        g.writeNumberField("last", d.last);
        g.writeObjectFieldStart("histogram");
        for (Map.Entry<Integer, Long> e : d.histogram.toMap().entrySet()) {
            g.writeNumberField(Integer.toString(e.getKey()), e.getValue());
        }
        g.writeEndObject();
        writeRtt("rtt", d.rtt, g);
        g.writeEndObject();
    }

    public static PairAggregate parse(byte[] json) throws VerdictFormatException {
        try (JsonParser p = VerdictJson.FACTORY.createParser(json)) {
            p.nextToken();
            VerdictJsonReader.expect(p, JsonToken.START_OBJECT, "aggregate");
            PairAggregate a = new PairAggregate();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                field(a, name, p);
            }
            return a;
        } catch (JsonProcessingException e) {
            throw new VerdictFormatException("aggregate: not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void field(PairAggregate a, String name, JsonParser p) throws IOException, VerdictFormatException {
        switch (name) {
            case "records" -> a.records = p.getLongValue();
            case "categories" -> VerdictJsonReader.longMap(p, name)
                    .forEach((k, v) -> a.categoryBytes[Category.parse(k).ordinal()] += v);
            case "addresses" -> a.addressBytes.putAll(VerdictJsonReader.longMap(p, name));
            case "rtt" -> a.rtt.merge(readRtt(p, "rtt"));
            case "dbCalls" -> readDbCalls(a.dbCalls, p);
            case "dbConnections" -> {
                VerdictJsonReader.expect(p, JsonToken.START_OBJECT, name);
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    p.nextToken();
                    p.nextToken();
                    long first = p.getLongValue();
                    p.nextToken();
                    long last = p.getLongValue();
                    p.nextToken();
                    a.dbConnections.add(key, first, last);
                }
            }
            case "topFlows" -> VerdictJsonReader.topFlows(p).forEach(a.topFlows::add);
            case "sampled" -> {
                Map<String, Long> m = VerdictJsonReader.longMap(p, name);
                long sampling = m.getOrDefault("sampling", 0L);
                if (sampling < 2 || sampling > Integer.MAX_VALUE) {
                    throw new VerdictFormatException("aggregate: sampled.sampling " + sampling
                            + " is not a sampling rate (2 or more)");
                }
                a.sampling = (int) sampling;
                a.dbSquares = m.getOrDefault("dbSquares", 0L);
                a.otherSquares = m.getOrDefault("otherSquares", 0L);
            }
            case "exporters" -> {
                Map<String, Long> m = VerdictJsonReader.longMap(p, name);
                a.exporterRecords = m.getOrDefault("records", 0L);
                a.exporterBytes = m.getOrDefault("bytes", 0L);
            }
            default -> p.skipChildren();
        }
    }

    private static void readDbCalls(DbCallStats d, JsonParser p) throws IOException, VerdictFormatException {
        VerdictJsonReader.expect(p, JsonToken.START_OBJECT, "dbCalls");
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String k = p.currentName();
            p.nextToken();
            switch (k) {
                case "calls" -> d.calls = p.getLongValue();
                case "micros" -> d.micros = p.getLongValue();
                case "first" -> d.first = p.getLongValue();
                case "last" -> d.last = p.getLongValue();
                case "histogram" -> {
                    Map<Integer, Long> m = new TreeMap<>();
                    VerdictJsonReader.longMap(p, "dbCalls.histogram").forEach((b, c) -> m.put(Integer.parseInt(b), c));
                    try {
                        d.histogram = io.siteflow.model.CallHistogram.of(m);
                    } catch (IllegalArgumentException e) {
                        throw new VerdictFormatException("aggregate: dbCalls.histogram: " + e.getMessage());
                    }
                }
                case "rtt" -> d.rtt.merge(readRtt(p, "dbCalls.rtt"));
                default -> p.skipChildren();
            }
        }
    }

    private static RttHistogram readRtt(JsonParser p, String what) throws IOException, VerdictFormatException {
        VerdictJsonReader.expect(p, JsonToken.START_OBJECT, what);
        long max = 0;
        boolean rounded = false;
        Map<Long, Long> counts = new TreeMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String k = p.currentName();
            p.nextToken();
            switch (k) {
                case "max" -> max = p.getLongValue();
                case "rounded" -> rounded = p.getBooleanValue();
                case "counts" -> VerdictJsonReader.longMap(p, what + ".counts").forEach((v, c) -> counts.put(Long.parseLong(v), c));
                default -> p.skipChildren();
            }
        }
        return RttHistogram.of(counts, max, rounded);
    }
}
