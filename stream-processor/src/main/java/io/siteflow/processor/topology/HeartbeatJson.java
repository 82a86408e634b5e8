package io.siteflow.processor.topology;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.siteflow.processor.query.AgentStatus;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads an agent heartbeat from {@code siteflow.agents} (the capture agent's {@code Heartbeat} JSON:
 * {@code agent, iface, time, received, droppedKernel, droppedInterface, decodeErrors, recordsSent, spooled,
 * dropped}). Unknown fields are skipped, missing counters read as 0. Stateless, thread-safe.
 */
public final class HeartbeatJson {
    /** An agent is silent when its last heartbeat is older than this (wall clock). */
    public static final long SILENT_AFTER_MS = 30_000L;
    private static final JsonFactory FACTORY = new JsonFactory();

    private HeartbeatJson() {
    }

    /** The status in a heartbeat, empty when the text is no heartbeat object with an {@code agent}. */
    public static Optional<AgentStatus> parse(String json, long nowMs) {
        if (json == null) {
            return Optional.empty();
        }
        Map<String, Object> f = new HashMap<>();
        try (JsonParser p = FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return Optional.empty();
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                if (t == JsonToken.VALUE_STRING) {
                    f.put(name, p.getText());
                } else if (t == JsonToken.VALUE_NUMBER_INT) {
                    f.put(name, p.getLongValue());
                } else {
                    p.skipChildren();
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        if (!(f.get("agent") instanceof String agent)) {
            return Optional.empty();
        }
        long time = num(f, "time");
        return Optional.of(new AgentStatus(agent, f.get("iface") instanceof String s ? s : "", time,
                num(f, "received"), num(f, "droppedKernel"), num(f, "droppedInterface"), num(f, "decodeErrors"),
                num(f, "spooled"), num(f, "dropped"), nowMs - time > SILENT_AFTER_MS));
    }

    private static long num(Map<String, Object> f, String key) {
        return f.get(key) instanceof Long l ? l : 0L;
    }
}
