package io.siteflow.processor.topology;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * JSON of an {@link Alert} on {@code siteflow.alerts}: {@code {"type": "FAIL", "key": "10.2.0.20",
 * "timeMs": 1764000060000, "message": "..."}}. Stateless, thread-safe.
 */
public final class AlertJson {
    private static final JsonFactory FACTORY = new JsonFactory();

    private AlertJson() {
    }

    public static String toJson(Alert a) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(w)) {
            g.writeStartObject();
            g.writeStringField("type", a.type());
            g.writeStringField("key", a.key());
            g.writeNumberField("timeMs", a.timeMs());
            g.writeStringField("message", a.message());
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    /**
     * Reads what {@link #toJson} wrote.
     *
     * @throws IllegalArgumentException when the text is not an alert object
     */
    public static Alert parse(String json) {
        String type = null;
        String key = null;
        String message = null;
        long time = 0;
        try (JsonParser p = FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("an alert is a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                switch (name) {
                    case "type" -> type = p.getText();
                    case "key" -> key = p.getText();
                    case "timeMs" -> time = p.getLongValue();
                    case "message" -> message = p.getText();
                    default -> p.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("alert: not JSON: " + e.getMessage(), e);
        }
        if (type == null || key == null || message == null) {
            throw new IllegalArgumentException("alert: type, key and message are required");
        }
        return new Alert(type, key, time, message);
    }
}
