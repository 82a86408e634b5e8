package io.siteflow.rules.verdict;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.siteflow.rules.model.Category;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The reading half of {@link VerdictJson}; also reads the parts {@link PairAggregateJson} shares. Thread-safe. */
final class VerdictJsonReader {
    private static final com.fasterxml.jackson.core.JsonFactory FACTORY = VerdictJson.FACTORY;

    private VerdictJsonReader() {
    }

    static Verdict parse(String json) throws VerdictFormatException {
        try (JsonParser p = FACTORY.createParser(json)) {
            p.nextToken();
            return read(p);
        } catch (JsonProcessingException e) {
            throw new VerdictFormatException("not JSON: " + e.getOriginalMessage() + " at offset "
                    + e.getLocation().getCharOffset());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Verdict read(JsonParser p) throws IOException, VerdictFormatException {
        VerdictFields f = new VerdictFields();
        expect(p, JsonToken.START_OBJECT, "verdict");
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            f.read(name, p);
        }
        return f.build();
    }

    static void expect(JsonParser p, JsonToken t, String what) throws VerdictFormatException {
        if (p.currentToken() != t) {
            throw new VerdictFormatException(what + ": expected " + t + " at offset "
                    + p.currentTokenLocation().getCharOffset() + ", found " + p.currentToken());
        }
    }

    static Map<String, Long> longMap(JsonParser p, String what) throws IOException, VerdictFormatException {
        expect(p, JsonToken.START_OBJECT, what);
        Map<String, Long> out = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String k = p.currentName();
            p.nextToken();
            out.put(k, p.getLongValue());
        }
        return out;
    }

    static List<TopFlow> topFlows(JsonParser p) throws IOException, VerdictFormatException {
        expect(p, JsonToken.START_ARRAY, "topFlows");
        List<TopFlow> out = new ArrayList<>();
        while (p.nextToken() == JsonToken.START_OBJECT) {
            Map<String, String> m = new LinkedHashMap<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String k = p.currentName();
                p.nextToken();
                m.put(k, p.getText());
            }
            try {
                out.add(new TopFlow(Integer.parseInt(m.get("proto")), m.get("src"), Integer.parseInt(m.get("srcPort")),
                        m.get("dst"), Integer.parseInt(m.get("dstPort")), m.getOrDefault("l7", ""),
                        Category.valueOf(m.get("category")), m.get("rule"), Long.parseLong(m.get("bytes"))));
            } catch (RuntimeException e) {
                throw new VerdictFormatException("topFlows: incomplete or bad flow " + m);
            }
        }
        return out;
    }

    private static Verdict with(Verdict v, DbCallSummary d, Optional<SampledEstimate> estimate,
                                Optional<ExporterComparison> exporters) {
        return new Verdict(v.server(), v.name(), v.site(), v.remoteSite(), v.window(), v.verdict(), v.dbShare(),
                v.threshold(), v.crossBytes(), v.categories(), v.addresses(), v.rttMicros(), v.dbConnections(),
                v.rules(), v.reason(), v.topFlows(), d, estimate, exporters);
    }

    /** {@code estimate{sampling, bound}}: both needed, the rate 2 or more, the bound not negative. */
    private static SampledEstimate estimate(JsonParser p) throws IOException, VerdictFormatException {
        expect(p, JsonToken.START_OBJECT, "estimate");
        Integer sampling = null;
        BigDecimal bound = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            if (name.equals("sampling") && t == JsonToken.VALUE_NUMBER_INT) {
                sampling = p.getIntValue();
            } else if (name.equals("bound") && t.isNumeric()) {
                bound = p.getDecimalValue();
            } else {
                p.skipChildren();
            }
        }
        if (sampling == null || sampling < 2 || bound == null || bound.signum() < 0) {
            throw new VerdictFormatException("estimate: needs sampling (2 or more) and bound (0 or more), got "
                    + sampling + " and " + bound);
        }
        return new SampledEstimate(sampling, bound);
    }

    /** Builder of a verdict from named fields. */
    private static final class VerdictFields {
        private final Map<String, String> text = new LinkedHashMap<>();
        private Optional<Window> window = Optional.empty();
        private BigDecimal dbShare;
        private BigDecimal threshold;
        private Map<String, Long> categories = Map.of();
        private Map<String, Long> addresses = Map.of();
        private Map<String, Long> rtt = Map.of();
        private Map<String, Long> db = Map.of();
        private List<TopFlow> top = List.of();
        private DbCallSummary dbCalls;
        private Optional<SampledEstimate> estimate = Optional.empty();
        private Optional<ExporterComparison> exporters = Optional.empty();

        void read(String name, JsonParser p) throws IOException, VerdictFormatException {
            switch (name) {
                case "window" -> {
                    Map<String, Long> w = longMap(p, "window");
                    window = Optional.of(new Window(w.getOrDefault("start", 0L), w.getOrDefault("end", 0L)));
                }
                case "dbShare" -> dbShare = p.getDecimalValue();
                case "threshold" -> threshold = p.getDecimalValue();
                case "categories" -> categories = longMap(p, name);
                case "addresses" -> addresses = longMap(p, name);
                case "rttMicros" -> rtt = longMap(p, name);
                case "dbConnections" -> db = longMap(p, name);
                case "topFlows" -> top = topFlows(p);
                case "dbCalls" -> dbCalls = DbCallJson.read(p);
                case "estimate" -> estimate = Optional.of(estimate(p));
                case "exporters" -> {
                    Map<String, Long> m = longMap(p, name);
                    exporters = Optional.of(new ExporterComparison(m.getOrDefault("bytes", 0L),
                            m.getOrDefault("difference", 0L)));
                }
                default -> {
                    if (p.currentToken().isStructStart()) {
                        p.skipChildren();
                    } else {
                        text.put(name, p.getText());
                    }
                }
            }
        }

        Verdict build() throws VerdictFormatException {
            for (String k : List.of("server", "name", "site", "remoteSite", "verdict", "crossBytes", "rules", "reason")) {
                if (!text.containsKey(k)) {
                    throw new VerdictFormatException("verdict: missing field \"" + k + "\"");
                }
            }
            if (dbShare == null || threshold == null) {
                throw new VerdictFormatException("verdict: missing field \"" + (dbShare == null ? "dbShare" : "threshold") + "\"");
            }
            Map<Category, Long> cats = new LinkedHashMap<>();
            categories.forEach((k, v) -> cats.put(Category.parse(k), v));
            DbConnectionSummary connections = new DbConnectionSummary(db.getOrDefault("median", 0L),
                    db.getOrDefault("max", 0L));
            try {
                Verdict v = new Verdict(text.get("server"), text.get("name"), text.get("site"), text.get("remoteSite"),
                        window, Outcome.valueOf(text.get("verdict")), dbShare, threshold,
                        Long.parseLong(text.get("crossBytes")), cats, addresses,
                        new RttSummary(rtt.getOrDefault("p50", 0L), rtt.getOrDefault("p95", 0L),
                                rtt.getOrDefault("max", 0L), rtt.getOrDefault("samples", 0L)),
                        connections, text.get("rules"), text.get("reason"), top);
                // a writer older than dbCalls: its connections come from dbConnections
                return with(v, dbCalls == null ? v.dbCalls() : dbCalls, estimate, exporters);
            } catch (IllegalArgumentException e) {
                throw new VerdictFormatException("verdict: " + e.getMessage());
            }
        }
    }
}
