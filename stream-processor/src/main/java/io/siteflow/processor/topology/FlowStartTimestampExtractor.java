package io.siteflow.processor.topology;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.processor.TimestampExtractor;

/**
 * Event time of a record on {@code siteflow.flows}: its {@code start} field (epoch ms of the first packet), read
 * by scanning the JSON up to that field without building the record. The topic itself uses LogAppendTime so that
 * retention goes by arrival; windows go by capture time. A value without a readable non-negative {@code start}
 * (it will go to the dead-letter topic) gets the partition's time so far, so garbage never moves stream time
 * (0 when the partition has none yet). Stateless, thread-safe.
 */
public final class FlowStartTimestampExtractor implements TimestampExtractor {
    private static final JsonFactory FACTORY = new JsonFactory();

    @Override
    public long extract(ConsumerRecord<Object, Object> record, long partitionTime) {
        long fallback = Math.max(partitionTime, 0);
        if (!(record.value() instanceof byte[] b)) {
            return fallback;
        }
        long start = start(b);
        return start >= 0 ? start : fallback;
    }

    /** The top-level {@code start} field as a long, or -1. */
    static long start(byte[] json) {
        try (JsonParser p = FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return -1;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                if (name.equals("start")) {
                    return t == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : -1;
                }
                p.skipChildren();
            }
            return -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
