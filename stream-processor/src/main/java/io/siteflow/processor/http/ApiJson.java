package io.siteflow.processor.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.siteflow.rules.verdict.DbSiteComparison;
import io.siteflow.rules.verdict.DbSiteJson;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.VerdictFormatException;
import io.siteflow.rules.verdict.VerdictJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The API's JSON mapping: Jackson databind for the query records (field names = record component names),
 * {@link VerdictJson} for verdicts so that {@code /api/verdicts} speaks exactly the verdict JSON of DESIGN.md.
 * Unknown fields are ignored when reading. Thread-safe.
 */
public final class ApiJson {
    private static final ObjectMapper MAPPER = create();

    private ApiJson() {
    }

    /** The shared mapper (configured once; do not reconfigure). */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** Serialises any API value; verdicts in the verdict JSON. */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("json: " + e.getOriginalMessage(), e);
        }
    }

    /** Reads a JSON array of {@code type}. @throws IOException when the text is not such an array */
    public static <T> List<T> readList(String json, TypeReference<List<T>> type) throws IOException {
        return MAPPER.readValue(json, type);
    }

    /** Reads one value. @throws IOException when the text is not such a value */
    public static <T> T read(String json, Class<T> type) throws IOException {
        return MAPPER.readValue(json, type);
    }

    private static ObjectMapper create() {
        SimpleModule verdicts = new SimpleModule("siteflow-verdicts");
        verdicts.addSerializer(Verdict.class, new JsonSerializer<>() {
            @Override
            public void serialize(Verdict v, JsonGenerator g, SerializerProvider p) throws IOException {
                VerdictJson.write(v, g);
            }
        });
        verdicts.addSerializer(DbSiteComparison.class, new JsonSerializer<>() {
            @Override
            public void serialize(DbSiteComparison d, JsonGenerator g, SerializerProvider p) throws IOException {
                DbSiteJson.write(d, g);
            }
        });
        verdicts.addDeserializer(Verdict.class, new JsonDeserializer<>() {
            @Override
            public Verdict deserialize(JsonParser p, DeserializationContext c) throws IOException {
                try {
                    return VerdictJson.read(p);
                } catch (VerdictFormatException e) {
                    throw new IOException("verdict: " + e.getMessage(), e);
                }
            }
        });
        return new ObjectMapper().registerModule(verdicts)
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    }
}
