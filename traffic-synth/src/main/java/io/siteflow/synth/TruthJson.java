package io.siteflow.synth;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;

/** Writes a {@link ScenarioTruth} as JSON with Jackson's streaming generator, pretty-printed, fields in a fixed order. */
final class TruthJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    private TruthJson() {
    }

    static String write(ScenarioTruth t) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out).useDefaultPrettyPrinter()) {
            g.writeStartObject();
            g.writeStringField("scenario", "stretched-cluster");
            g.writeStringField("capturePoint", t.capturePoint());
            g.writeNumberField("seed", t.seed());
            g.writeNumberField("startNanos", t.startNanos());
            g.writeNumberField("durationNanos", t.durationNanos());
            g.writeObjectFieldStart("rttMicros");
            g.writeNumberField("interRegion", t.interRegionRttMicros());
            g.writeNumberField("intraRegion", t.intraRegionRttMicros());
            g.writeEndObject();
            g.writeNumberField("packets", t.packets());
            g.writeNumberField("ipBytes", t.ipBytes());
            hosts(g, t);
            g.writeObjectFieldStart("dbConnections");
            for (Map.Entry<String, Integer> e : new TreeMap<>(t.dbConnections()).entrySet()) {
                g.writeNumberField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
            g.writeObjectFieldStart("dbCalls");
            for (Map.Entry<String, Long> e : t.dbCalls().entrySet()) {
                g.writeNumberField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
            totals(g, t);
            connections(g, t);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("truth: json: " + e.getMessage(), e);
        }
        return out.toString();
    }

    private static void hosts(JsonGenerator g, ScenarioTruth t) throws IOException {
        g.writeArrayFieldStart("hosts");
        for (ClusterHost h : t.hosts()) {
            g.writeStartObject();
            g.writeStringField("name", h.name());
            g.writeStringField("address", h.address());
            g.writeStringField("region", h.region());
            g.writeStringField("role", h.role().name());
            if (t.crossSiteBytes(h.address()) > 0) {
                g.writeNumberField("crossSiteBytes", t.crossSiteBytes(h.address()));
                g.writeNumberField("dbShare", Math.round(t.dbShare(h.address()) * 1e6) / 1e6);
            }
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void totals(JsonGenerator g, ScenarioTruth t) throws IOException {
        g.writeArrayFieldStart("totals");
        for (TrafficTotal x : t.totals()) {
            g.writeStartObject();
            g.writeStringField("server", x.server());
            g.writeStringField("remote", x.remote());
            g.writeStringField("category", x.category().name());
            g.writeNumberField("bytes", x.bytes());
            g.writeNumberField("packets", x.packets());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void connections(JsonGenerator g, ScenarioTruth t) throws IOException {
        g.writeArrayFieldStart("connections");
        for (ConnectionTruth c : t.connections()) {
            g.writeStartObject();
            g.writeStringField("category", c.category().name());
            g.writeNumberField("proto", c.proto());
            g.writeStringField("client", c.client());
            g.writeNumberField("clientPort", c.clientPort());
            g.writeStringField("server", c.server());
            g.writeNumberField("serverPort", c.serverPort());
            g.writeNumberField("bytes", c.bytes());
            g.writeNumberField("packets", c.packets());
            g.writeNumberField("rbytes", c.rbytes());
            g.writeNumberField("rpackets", c.rpackets());
            if (c.rttMicros() >= 0) {
                g.writeNumberField("rttMicros", c.rttMicros());
            }
            g.writeNumberField("firstNanos", c.firstNanos());
            g.writeEndObject();
        }
        g.writeEndArray();
    }
}
