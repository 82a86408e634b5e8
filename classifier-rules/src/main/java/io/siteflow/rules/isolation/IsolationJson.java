package io.siteflow.rules.isolation;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code siteflow isolation check --format json} and {@code GET /api/isolation}: an {@link IsolationReport} as
 * {@code {"policy", "model", "from", "to", "violations": [...], "pairs": [...], "modelSuspects": [...],
 * "unverified": [...]}} in that fixed order, pretty-printed (docs/RULES.md, "Isolation policy", "JSON").
 * Thread-safe.
 */
public final class IsolationJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    private IsolationJson() {
    }

    /** The report as pretty-printed JSON, with a final newline. */
    public static String write(IsolationReport r) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.useDefaultPrettyPrinter();
            write(r, g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8) + "\n";
    }

    /** The report as one JSON object on a generator (for a caller that embeds it). */
    public static void write(IsolationReport r, JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeStringField("policy", r.policyVersion());
        g.writeStringField("model", r.modelVersion());
        g.writeNumberField("from", r.fromMs());
        g.writeNumberField("to", r.toMs());
        g.writeArrayFieldStart("violations");
        for (IsolationEdge e : r.violations()) {
            writeEdge(e, g);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("pairs");
        for (PairState p : r.pairs()) {
            g.writeStartObject();
            g.writeStringField("from", p.from());
            g.writeStringField("to", p.to());
            g.writeStringField("state", p.state().name());
            g.writeNumberField("violatingBytes", p.violatingBytes());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("modelSuspects");
        for (ModelSuspect s : r.modelSuspects()) {
            g.writeStartObject();
            g.writeStringField("address", s.address());
            g.writeStringField("site", s.site());
            g.writeStringField("peerSite", s.peerSite());
            g.writeNumberField("minRttMicros", s.minRttMicros());
            g.writeNumberField("referenceMicros", s.referenceMicros());
            g.writeStringField("message", s.message());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("unverified");
        for (Unverified u : r.unverified()) {
            g.writeStartObject();
            g.writeStringField("agent", u.agent());
            g.writeStringField("host", u.host().orElse(null));
            g.writeStringField("reason", u.reason());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /**
     * One edge with its evidence: {@code decision, rule, client, server, serverPort, proto, category, l7, fromGroups,
     * toGroups, clientSite, serverSite, bytes, packets, flows, firstSeenMs, lastSeenMs, observer, nearestAllow}
     * ({@code nearestAllow} null when the policy has no allow rule or the edge does not violate).
     */
    public static void writeEdge(IsolationEdge e, JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeStringField("decision", e.decision().name());
        g.writeStringField("rule", e.rule());
        g.writeStringField("client", e.client());
        g.writeStringField("server", e.server());
        g.writeNumberField("serverPort", e.serverPort());
        g.writeNumberField("proto", e.proto());
        g.writeStringField("category", e.category().name());
        g.writeStringField("l7", e.l7());
        stringArray(g, "fromGroups", e.fromGroups());
        stringArray(g, "toGroups", e.toGroups());
        g.writeStringField("clientSite", e.clientSite());
        g.writeStringField("serverSite", e.serverSite());
        g.writeNumberField("bytes", e.bytes());
        g.writeNumberField("packets", e.packets());
        g.writeNumberField("flows", e.flowsReported());
        g.writeNumberField("firstSeenMs", e.firstSeenMs());
        g.writeNumberField("lastSeenMs", e.lastSeenMs());
        g.writeStringField("observer", e.observer());
        if (e.nearestAllow().isPresent()) {
            NearestAllow n = e.nearestAllow().get();
            g.writeObjectFieldStart("nearestAllow");
            g.writeStringField("rule", n.rule());
            stringArray(g, "failed", n.failed());
            g.writeEndObject();
        } else {
            g.writeNullField("nearestAllow");
        }
        g.writeEndObject();
    }

    private static void stringArray(JsonGenerator g, String name, java.util.List<String> values) throws IOException {
        g.writeArrayFieldStart(name);
        for (String v : values) {
            g.writeString(v);
        }
        g.writeEndArray();
    }
}
