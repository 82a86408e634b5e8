package io.siteflow.rules.verdict;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import io.siteflow.rules.model.Category;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * JSON codec of {@link Verdict} with Jackson's streaming API, field names as DESIGN.md fixes them:
 * {@code server, name, site, remoteSite, window{start,end}} (absent for the cumulative verdict),
 * {@code verdict, dbShare, threshold, crossBytes, categories, addresses, rttMicros{p50,p95,max,samples}}
 * ({@code p50/p95/max} absent when there is no sample), {@code dbConnections{median,max}} (deprecated: the
 * same as {@code dbCalls.connections}, kept one version), {@code dbCalls{calls, callsPerSecond,
 * callMicros{p50,p95,p99}, rttMicros, networkShare, serviceMicros{p50}, connections{median,max}}} ({@link DbCallJson}),
 * {@code rules, reason, topFlows}, then {@code estimate{sampling, bound}} only for a verdict from sampled records
 * ({@link SampledEstimate}), and {@code exporters{bytes, difference}} only when exporters' records of the pair were
 * compared with its observer's ({@link ExporterComparison}). Unknown fields are skipped when reading. Thread-safe.
 */
public final class VerdictJson {
    static final JsonFactory FACTORY = new JsonFactory();

    private VerdictJson() {
    }

    public static String toJson(Verdict v) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            write(v, g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Writes one verdict as a JSON object to a generator the caller owns. */
    public static void write(Verdict v, JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeStringField("server", v.server());
        g.writeStringField("name", v.name());
        g.writeStringField("site", v.site());
        g.writeStringField("remoteSite", v.remoteSite());
        if (v.window().isPresent()) {
            g.writeObjectFieldStart("window");
            g.writeNumberField("start", v.window().get().start());
            g.writeNumberField("end", v.window().get().end());
            g.writeEndObject();
        }
        g.writeStringField("verdict", v.verdict().name());
        g.writeNumberField("dbShare", v.dbShare());
        g.writeNumberField("threshold", v.threshold());
        g.writeNumberField("crossBytes", v.crossBytes());
        g.writeObjectFieldStart("categories");
        for (Map.Entry<Category, Long> e : v.categories().entrySet()) {
            g.writeNumberField(e.getKey().name(), e.getValue());
        }
        g.writeEndObject();
        g.writeObjectFieldStart("addresses");
        for (Map.Entry<String, Long> e : v.addresses().entrySet()) {
            g.writeNumberField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
        writeRtt(v.rttMicros(), g);
        g.writeObjectFieldStart("dbConnections");
        g.writeNumberField("median", v.dbConnections().median());
        g.writeNumberField("max", v.dbConnections().max());
        g.writeEndObject();
        DbCallJson.write(v.dbCalls(), g);
        g.writeStringField("rules", v.rules());
        g.writeStringField("reason", v.reason());
        g.writeArrayFieldStart("topFlows");
        for (TopFlow f : v.topFlows()) {
            writeTopFlow(f, g);
        }
        g.writeEndArray();
        if (v.estimate().isPresent()) {
            g.writeObjectFieldStart("estimate");
            g.writeNumberField("sampling", v.estimate().get().sampling());
            g.writeNumberField("bound", v.estimate().get().bound());
            g.writeEndObject();
        }
        if (v.exporters().isPresent()) {
            g.writeObjectFieldStart("exporters");
            g.writeNumberField("bytes", v.exporters().get().bytes());
            g.writeNumberField("difference", v.exporters().get().difference());
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static void writeRtt(RttSummary r, JsonGenerator g) throws IOException {
        g.writeObjectFieldStart("rttMicros");
        if (r.samples() > 0) {
            g.writeNumberField("p50", r.p50());
            g.writeNumberField("p95", r.p95());
            g.writeNumberField("max", r.max());
        }
        g.writeNumberField("samples", r.samples());
        g.writeEndObject();
    }

    /** Writes one top flow as a JSON object (verdicts and stored aggregates alike). */
    static void writeTopFlow(TopFlow f, JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeNumberField("proto", f.proto());
        g.writeStringField("src", f.src());
        g.writeNumberField("srcPort", f.srcPort());
        g.writeStringField("dst", f.dst());
        g.writeNumberField("dstPort", f.dstPort());
        if (!f.l7().isEmpty()) {
            g.writeStringField("l7", f.l7());
        }
        g.writeStringField("category", f.category().name());
        g.writeStringField("rule", f.rule());
        g.writeNumberField("bytes", f.bytes());
        g.writeEndObject();
    }

    /** Parses one verdict. */
    public static Verdict parse(String json) throws VerdictFormatException {
        return VerdictJsonReader.parse(json);
    }

    /** Reads one verdict object; the parser stands on its START_OBJECT and is left on its END_OBJECT. */
    public static Verdict read(JsonParser p) throws IOException, VerdictFormatException {
        return VerdictJsonReader.read(p);
    }
}
