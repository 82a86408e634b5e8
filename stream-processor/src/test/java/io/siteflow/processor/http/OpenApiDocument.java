package io.siteflow.processor.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.InputFormat;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * docs/openapi.yaml as the tests read it: parsed by swagger-parser (for its messages and paths), and walked as
 * a JSON tree to find each GET operation's parameters and responses; response bodies are validated with the
 * networknt validator in the OpenAPI 3.1 dialect, {@code $ref}s resolving inside the document. The document
 * is served to the validator from memory under {@link #IRI}: nothing is fetched. Immutable.
 */
final class OpenApiDocument {
    /** Where the validator believes the document lives; {@code .invalid} never resolves. */
    static final String IRI = "https://siteflow.invalid/openapi.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A GET of a documented path with some of its parameters set to their documented examples. */
    record Call(String path, String query) {
        String target() {
            return query.isEmpty() ? path : path + "?" + query;
        }
    }

    private final SwaggerParseResult parsed;
    private final JsonNode root;
    private final SchemaRegistry schemas;

    private OpenApiDocument(SwaggerParseResult parsed, JsonNode root, String json) {
        this.parsed = parsed;
        this.root = root;
        this.schemas = SchemaRegistry.withDialect(Dialects.getOpenApi31(), b -> b.schemas(Map.of(IRI, json)));
    }

    static OpenApiDocument read(Path file) {
        try {
            String yaml = Files.readString(file);
            ParseOptions options = new ParseOptions();
            options.setResolve(true);
            SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(yaml, null, options);
            JsonNode root = new ObjectMapper(new YAMLFactory()).readTree(yaml);
            return new OpenApiDocument(parsed, root, JSON.writeValueAsString(root));
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        }
    }

    /** What swagger-parser found wrong, empty for a valid document. */
    List<String> messages() {
        return parsed.getMessages() == null ? List.of() : parsed.getMessages();
    }

    /** The documented paths, as swagger-parser read them. */
    Set<String> paths() {
        return new TreeSet<>(parsed.getOpenAPI().getPaths().keySet());
    }

    String openapi() {
        return parsed.getOpenAPI().getOpenapi();
    }

    /**
     * Per documented GET: one call with the required parameters only and, when it has optional ones, one with
     * every parameter; each parameter set to its {@code example}. A required parameter without one is an error.
     */
    List<Call> exampleCalls() {
        List<Call> calls = new ArrayList<>();
        for (String path : paths()) {
            List<String> required = new ArrayList<>();
            List<String> all = new ArrayList<>();
            for (JsonNode p : operation(path).path("parameters")) {
                JsonNode param = deref(p);
                String name = param.path("name").asText();
                JsonNode example = param.get("example");
                boolean needed = param.path("required").asBoolean();
                if (example == null && needed) {
                    throw new IllegalStateException(path + ": required parameter " + name + " has no example");
                }
                if (example == null) {
                    continue;
                }
                String pair = name + "=" + URLEncoder.encode(example.asText(), StandardCharsets.UTF_8);
                all.add(pair);
                if (needed) {
                    required.add(pair);
                }
            }
            calls.add(new Call(path, String.join("&", required)));
            if (all.size() > required.size()) {
                calls.add(new Call(path, String.join("&", all)));
            }
        }
        return calls;
    }

    /** The description of the GET of {@code path}, empty when it has none. */
    String description(String path) {
        return operation(path).path("description").asText();
    }

    /** The media types documented for a status of the GET of {@code path}, in document order; empty if none. */
    Set<String> mediaTypes(String path, int status) {
        Set<String> out = new LinkedHashSet<>();
        response(path, status).path("content").fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** The headers documented for a status of the GET of {@code path}; empty if none. */
    Set<String> headers(String path, int status) {
        Set<String> out = new LinkedHashSet<>();
        response(path, status).path("headers").fieldNames().forEachRemaining(out::add);
        return out;
    }

    /**
     * Validates a body against the documented schema of {@code path}, {@code status} and {@code mediaType}:
     * JSON as it is, any other media type as one JSON string.
     *
     * @return the errors, each as {@code /json/pointer: message}, {@code /} for the whole body
     */
    List<String> validate(String path, int status, String mediaType, String body) {
        String pointer = responsePointer(path, status) + "/content/" + escape(mediaType) + "/schema";
        String instance;
        try {
            instance = mediaType.equals("application/json") ? body : JSON.writeValueAsString(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return schemas.getSchema(SchemaLocation.of(IRI + "#" + pointer)).validate(instance, InputFormat.JSON)
                .stream().map(e -> (e.getInstanceLocation().getNameCount() == 0 ? "/" : e.getInstanceLocation())
                        + ": " + e.getMessage()).collect(Collectors.toList());
    }

    private JsonNode operation(String path) {
        return root.path("paths").path(path).path("get");
    }

    private JsonNode response(String path, int status) {
        return root.at(responsePointer(path, status));
    }

    private String responsePointer(String path, int status) {
        JsonNode r = operation(path).path("responses").path(String.valueOf(status));
        return r.has("$ref") ? r.get("$ref").asText().substring(1)
                : "/paths/" + escape(path) + "/get/responses/" + status;
    }

    private JsonNode deref(JsonNode node) {
        return node.has("$ref") ? root.at(node.get("$ref").asText().substring(1)) : node;
    }

    /** A JSON-pointer token (RFC 6901). */
    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }
}
