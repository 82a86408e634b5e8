package io.siteflow.rules.verdict;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;

/**
 * The verdict's {@code dbCalls} object, exactly these keys: {@code calls, callsPerSecond, callMicros{p50,p95,p99},
 * rttMicros, networkShare, serviceMicros{p50}, connections{median,max}}. Written and read by this one class.
 * Thread-safe.
 */
public final class DbCallJson {
    private DbCallJson() {
    }

    static void write(DbCallSummary d, JsonGenerator g) throws IOException {
        write("dbCalls", d, g);
    }

    /** Writes the object as the field {@code name} of the object the generator is in. */
    public static void write(String name, DbCallSummary d, JsonGenerator g) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeNumberField("calls", d.calls());
        g.writeNumberField("callsPerSecond", d.callsPerSecond());
        g.writeObjectFieldStart("callMicros");
        g.writeNumberField("p50", d.p50());
        g.writeNumberField("p95", d.p95());
        g.writeNumberField("p99", d.p99());
        g.writeEndObject();
        g.writeNumberField("rttMicros", d.rttMicros());
        g.writeNumberField("networkShare", d.networkShare());
        g.writeObjectFieldStart("serviceMicros");
        g.writeNumberField("p50", d.serviceP50());
        g.writeEndObject();
        g.writeObjectFieldStart("connections");
        g.writeNumberField("median", d.connections().median());
        g.writeNumberField("max", d.connections().max());
        g.writeEndObject();
        g.writeEndObject();
    }

    /** Reads the object the parser stands on (its START_OBJECT); missing figures read as 0. */
    static DbCallSummary read(JsonParser p) throws IOException, VerdictFormatException {
        VerdictJsonReader.expect(p, JsonToken.START_OBJECT, "dbCalls");
        Map<String, Long> n = new HashMap<>();
        BigDecimal perSecond = DbCallSummary.NONE.callsPerSecond();
        BigDecimal share = DbCallSummary.NONE.networkShare();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String k = p.currentName();
            JsonToken t = p.nextToken();
            switch (k) {
                case "callsPerSecond" -> perSecond = p.getDecimalValue();
                case "networkShare" -> share = p.getDecimalValue();
                default -> {
                    if (t == JsonToken.START_OBJECT) {
                        VerdictJsonReader.longMap(p, "dbCalls." + k).forEach((kk, v) -> n.put(k + "." + kk, v));
                    } else if (t.isNumeric()) {
                        n.put(k, p.getLongValue());
                    } else {
                        p.skipChildren();
                    }
                }
            }
        }
        return new DbCallSummary(n.getOrDefault("calls", 0L), perSecond, n.getOrDefault("callMicros.p50", 0L),
                n.getOrDefault("callMicros.p95", 0L), n.getOrDefault("callMicros.p99", 0L),
                n.getOrDefault("rttMicros", 0L), share, n.getOrDefault("serviceMicros.p50", 0L),
                new DbConnectionSummary(n.getOrDefault("connections.median", 0L), n.getOrDefault("connections.max", 0L)));
    }
}
