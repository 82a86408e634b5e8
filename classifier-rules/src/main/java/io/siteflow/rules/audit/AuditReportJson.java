package io.siteflow.rules.audit;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.siteflow.rules.verdict.DbSiteComparison;
import io.siteflow.rules.verdict.DbSiteJson;
import io.siteflow.rules.verdict.SitePairRtt;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.VerdictJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code siteflow audit --format json}: {@code {"capture": {...}, "verdicts": [cumulative verdicts],
 * "windows": [per-window verdicts], "sitePairs": [RTT per site pair], "dbSites": [per database, {@link DbSiteJson}]}}, pretty-printed. Thread-safe.
 */
public final class AuditReportJson {
    private static final JsonFactory FACTORY = new JsonFactory();
    private AuditReportJson() {
    }

    public static String toJson(AuditReport r) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.useDefaultPrettyPrinter();
            write(r, g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8) + "\n";
    }

    public static void write(AuditReport r, JsonGenerator g) throws IOException {
        CaptureInfo c = r.capture();
        g.writeStartObject();
        g.writeObjectFieldStart("capture");
        g.writeStringField("source", c.source());
        g.writeNumberField("records", c.records());
        g.writeNumberField("start", c.firstMs());
        g.writeNumberField("end", c.lastMs());
        g.writeNumberField("bytes", c.bytes());
        g.writeNumberField("unclassifiedBytes", c.unclassified());
        g.writeNumberField("rejectedRecords", c.rejected());
        g.writeNumberField("received", c.received());
        g.writeNumberField("dropped", c.dropped());
        g.writeStringField("rules", r.rules());
        g.writeEndObject();
        g.writeArrayFieldStart("verdicts");
        for (Verdict v : r.verdicts()) {
            VerdictJson.write(v, g);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("windows");
        for (Verdict v : r.windows()) {
            VerdictJson.write(v, g);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("sitePairs");
        for (SitePairRtt p : r.sitePairs()) {
            g.writeStartObject();
            g.writeStringField("siteA", p.siteA());
            g.writeStringField("siteB", p.siteB());
            g.writeObjectFieldStart("rttMicros");
            g.writeNumberField("p50", p.rtt().p50());
            g.writeNumberField("p95", p.rtt().p95());
            g.writeNumberField("max", p.rtt().max());
            g.writeNumberField("samples", p.rtt().samples());
            g.writeEndObject();
            g.writeBooleanField("aboveOracleLimit", p.aboveOracleLimit());
            if (p.limit().siteModelSetsOne()) {
                g.writeBooleanField("aboveLimit", p.aboveLimit());
                g.writeNumberField("limitMicros", p.limit().micros());
                g.writeStringField("limitSource", p.limit().source().json());
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("dbSites");
        for (DbSiteComparison d : r.dbSites()) {
            DbSiteJson.write(d, g);
        }
        g.writeEndArray();
        g.writeEndObject();
    }
}
