package io.siteflow.rules.whatif;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The one JSON form of a {@link WhatIfReport}: what {@code siteflow whatif --json} prints and {@code /api/whatif}
 * answers, on one line, fields in this order (docs/RULES.md, "What-if"):
 * <pre>{"server":"wls3","address":"10.2.0.20","fromSite":"region2","toSite":"region1",
 *  "crossBytes":{"before":1800000,"after":100000},
 *  "becomeLocal":{"flows":1,"bytes":1800000,"largest":[{"src":"10.2.0.20","srcPort":40000,"dst":"10.1.0.10",
 *    "dstPort":1521,"category":"DB","bytes":1800000}]},
 *  "becomeRemote":{"flows":0,"bytes":0,"largest":[]},
 *  "dbCalls":{"stopPaying":2000,"startPaying":0,"seconds":10,"rttSavedMicros":6500,"microsSavedPerSecond":1300000},
 *  "limitMicros":10000,
 *  "links":[{"siteA":"region1","siteB":"region2","rttP50Micros":6500,"fibreKmAtMost":650,"aboveLimit":false}]}</pre>
 * When the site model sets {@code rttLimitMs}, {@code "limitSource":"oracle"|"site-model"} follows
 * {@code limitMicros} (the limit in force: the stricter of Oracle's 10 ms and the model's) and a link's
 * {@code aboveLimit} compares with it. {@code largest} lists at most the 10 largest flows (the text's list);
 * {@code flows} and {@code bytes} count them all. Thread-safe.
 */
public final class WhatIfJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    private WhatIfJson() {
    }

    /** The report as JSON, without a final newline. */
    public static String toJson(WhatIfReport r) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(w)) {
            write(r, g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    private static void write(WhatIfReport r, JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeStringField("server", r.server());
        g.writeStringField("address", r.address());
        g.writeStringField("fromSite", r.fromSite());
        g.writeStringField("toSite", r.toSite());
        g.writeObjectFieldStart("crossBytes");
        g.writeNumberField("before", r.crossBytesBefore());
        g.writeNumberField("after", r.crossBytesAfter());
        g.writeEndObject();
        flows("becomeLocal", r.becomeLocal(), r.becomeLocalTotal(), g);
        flows("becomeRemote", r.becomeRemote(), r.becomeRemoteTotal(), g);
        g.writeObjectFieldStart("dbCalls");
        g.writeNumberField("stopPaying", r.callsStopPaying());
        g.writeNumberField("startPaying", r.callsStartPaying());
        g.writeNumberField("seconds", r.seconds());
        g.writeNumberField("rttSavedMicros", r.rttSavedMicros());
        g.writeNumberField("microsSavedPerSecond", r.microsSavedPerSecond());
        g.writeEndObject();
        g.writeNumberField("limitMicros", r.limit().micros());
        if (r.limit().siteModelSetsOne()) {
            g.writeStringField("limitSource", r.limit().source().json());
        }
        g.writeArrayFieldStart("links");
        for (WhatIfReport.Link l : r.links()) {
            g.writeStartObject();
            g.writeStringField("siteA", l.siteA());
            g.writeStringField("siteB", l.siteB());
            g.writeNumberField("rttP50Micros", l.rttP50Micros());
            g.writeNumberField("fibreKmAtMost", l.fibreKmAtMost());
            g.writeBooleanField("aboveLimit", l.aboveLimit());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void flows(String name, List<WhatIfReport.Flow> flows, WhatIfReport.Total total, JsonGenerator g)
            throws IOException {
        g.writeObjectFieldStart(name);
        g.writeNumberField("flows", total.flows());
        g.writeNumberField("bytes", total.bytes());
        g.writeArrayFieldStart("largest");
        for (WhatIfReport.Flow f : flows.stream().limit(WhatIfText.LISTED).toList()) {
            g.writeStartObject();
            g.writeStringField("src", f.src());
            g.writeNumberField("srcPort", f.srcPort());
            g.writeStringField("dst", f.dst());
            g.writeNumberField("dstPort", f.dstPort());
            g.writeStringField("category", f.category());
            g.writeNumberField("bytes", f.bytes());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }
}
