package io.siteflow.processor.topology;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordFormatException;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.rules.classify.Classifier;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The parse step of {@link IngestStep}: reads a flow-record value with {@link FlowRecordJson} and checks that
 * both addresses are IP addresses. A value that fails becomes a dead letter: {@code {"error": "...", "topic":
 * "siteflow.flows", "partition": 0, "offset": 42, "value": "<original bytes, base64>"}} ({@code value} is null
 * for a null value). Stateless.
 */
final class ParseStep {
    private static final JsonFactory FACTORY = new JsonFactory();

    private ParseStep() {
    }

    /** The record in {@code value}, with its flow; thrown when it is not one (the message is the dead letter's error). */
    static Parsed read(byte[] value) throws FlowRecordFormatException {
        if (value == null) {
            throw new FlowRecordFormatException("no value (tombstone)");
        }
        FlowRecord r = FlowRecordJson.parse(value);
        try {
            return new Parsed(r, Classifier.flowOf(r));
        } catch (IllegalArgumentException e) {
            throw new FlowRecordFormatException("address: " + e.getMessage(), e);
        }
    }

    /**
     * The reason a record starting at {@code start} is not used when the clock says {@code now} (epoch ms):
     * {@code start 2027-01-01T00:00:00Z is PT2H ahead of this processor's clock (2026-12-31T22:00:00Z; at most
     * PT5M is used): is the agent's clock wrong?}
     */
    static String aheadOfClock(long start, long now, Duration maxAhead) {
        return "start " + Instant.ofEpochMilli(start) + " is " + Duration.ofMillis(start - now) + " ahead of this "
                + "processor's clock (" + Instant.ofEpochMilli(now) + "; at most " + maxAhead + " is used): is the "
                + "agent's clock wrong?";
    }

    /** The dead letter of an unreadable value read at {@code m} (null: unknown). */
    static String deadLetter(String error, byte[] value, RecordMetadata m) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(w)) {
            g.writeStartObject();
            g.writeStringField("error", error == null ? "unreadable" : error);
            g.writeStringField("topic", m == null ? TopologySpec.FLOWS : m.topic());
            g.writeNumberField("partition", m == null ? -1 : m.partition());
            g.writeNumberField("offset", m == null ? -1 : m.offset());
            g.writeStringField("value", value == null ? null : Base64.getEncoder().encodeToString(value));
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }
}
