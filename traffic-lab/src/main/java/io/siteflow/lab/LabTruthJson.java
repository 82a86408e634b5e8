package io.siteflow.lab;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.siteflow.synth.TrafficCategory;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;

/** Writes a {@link LabTruth} as pretty-printed JSON with Jackson's streaming generator, fields in a fixed order. */
final class LabTruthJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    private LabTruthJson() {
    }

    static String write(LabTruth t) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out).useDefaultPrettyPrinter()) {
            g.writeStartObject();
            g.writeStringField("lab", t.prefix());
            g.writeStringField("iface", t.iface());
            g.writeNumberField("delayMicros", t.delayMicros());
            g.writeNumberField("start", t.startMillis());
            g.writeNumberField("end", t.endMillis());
            g.writeObjectFieldStart("capture");
            g.writeNumberField("packets", t.packets());
            g.writeNumberField("ipBytes", t.ipBytes());
            g.writeNumberField("otherFrames", t.otherFrames());
            g.writeNumberField("droppedKernel", t.droppedKernel());
            g.writeEndObject();
            servers(g, t);
            conversations(g, t);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("lab truth: json: " + e.getMessage(), e);
        }
        return out.toString() + "\n";
    }

    private static void servers(JsonGenerator g, LabTruth t) throws IOException {
        g.writeArrayFieldStart("servers");
        for (LabHost h : LabHost.REGION2_HOSTS) {
            g.writeStartObject();
            g.writeStringField("server", h.address());
            g.writeStringField("name", h.name());
            g.writeStringField("site", h.site());
            g.writeStringField("remoteSite", LabTopology.REGION1);
            g.writeNumberField("targetShare", t.targetShares().getOrDefault(h.address(), 0.0));
            g.writeNumberField("crossBytes", t.crossBytes(h.address()));
            g.writeNumberField("dbShare", Math.round(t.dbShare(h.address()) * 1e6) / 1e6);
            g.writeObjectFieldStart("categories");
            for (Map.Entry<TrafficCategory, Long> e : t.categories(h.address()).entrySet()) {
                g.writeNumberField(e.getKey().name(), e.getValue());
            }
            g.writeEndObject();
            DbCallTruth calls = t.dbCalls().get(h.address());
            if (calls != null) {
                g.writeObjectFieldStart("dbCalls");
                g.writeNumberField("calls", calls.calls());
                g.writeNumberField("p50Micros", calls.p50Micros());
                g.writeNumberField("spanMicros", calls.spanMicros());
                g.writeEndObject();
            }
            g.writeObjectFieldStart("addresses");
            Map<String, Long> byAddress = new TreeMap<>();
            t.conversations().stream().filter(c -> c.client().equals(h.address()))
                    .forEach(c -> byAddress.merge(c.server(), c.totalBytes(), Long::sum));
            for (Map.Entry<String, Long> e : byAddress.entrySet()) {
                g.writeNumberField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void conversations(JsonGenerator g, LabTruth t) throws IOException {
        g.writeArrayFieldStart("conversations");
        for (ConversationTruth c : t.conversations()) {
            g.writeStartObject();
            g.writeStringField("proto", c.proto() == 6 ? "tcp" : c.proto() == 17 ? "udp" : String.valueOf(c.proto()));
            g.writeStringField("client", c.client());
            g.writeNumberField("clientPort", c.clientPort());
            g.writeStringField("server", c.server());
            g.writeNumberField("serverPort", c.serverPort());
            g.writeStringField("category", c.category().name());
            g.writeNumberField("bytes", c.bytes());
            g.writeNumberField("packets", c.packets());
            g.writeNumberField("rbytes", c.rbytes());
            g.writeNumberField("rpackets", c.rpackets());
            g.writeEndObject();
        }
        g.writeEndArray();
    }
}
