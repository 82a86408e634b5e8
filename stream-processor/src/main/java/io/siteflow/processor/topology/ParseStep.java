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
import java.util.Base64;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Reads a flow-record value with {@link FlowRecordJson} and checks that both addresses are IP addresses; a
 * readable record goes on with its {@code start} as its timestamp (event time). A value
 * that fails becomes a dead letter: {@code {"error": "...", "topic": "siteflow.flows", "partition": 0,
 * "offset": 42, "value": "<original bytes, base64>"}} ({@code value} is null for a null value). Never throws.
 */
final class ParseStep implements FixedKeyProcessor<byte[], byte[], Parsed> {
    private static final JsonFactory FACTORY = new JsonFactory();
    private final PipelineMetrics metrics;
    private FixedKeyProcessorContext<byte[], Parsed> context;

    ParseStep(PipelineMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void init(FixedKeyProcessorContext<byte[], Parsed> context) {
        this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<byte[], byte[]> rec) {
        metrics.recordsIn.increment();
        Parsed.Ok ok;
        try {
            ok = read(rec.value());
        } catch (FlowRecordFormatException e) {
            metrics.deadLetters.increment();
            context.forward(rec.withValue(new Parsed.Bad(deadLetter(e.getMessage(), rec.value(),
                    context.recordMetadata().orElse(null)))));
            return;
        }
        // event time from here on: the record's start (the topic's own timestamp is its arrival)
        context.forward(rec.withValue((Parsed) ok).withTimestamp(Math.max(ok.record().start(), 0)));
    }

    private static Parsed.Ok read(byte[] value) throws FlowRecordFormatException {
        if (value == null) {
            throw new FlowRecordFormatException("no value (tombstone)");
        }
        FlowRecord r = FlowRecordJson.parse(value);
        try {
            return new Parsed.Ok(r, Classifier.flowOf(r));
        } catch (IllegalArgumentException e) {
            throw new FlowRecordFormatException("address: " + e.getMessage(), e);
        }
    }

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
