package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecordFormatException;
import io.siteflow.model.FlowRecordJson;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.processor.TimestampExtractor;

/**
 * Event time of a record on {@code siteflow.flows}: its {@code start} (epoch ms of the first packet). The topic
 * itself uses LogAppendTime so that retention goes by arrival; windows go by capture time. The value is parsed
 * whole (the parse step parses it again; the price of never trusting a field of a value that does not read):
 * a value that does not read, which will go to the dead-letter topic, gets the partition's time so far (0 when
 * the partition has none yet), so garbage never moves stream time. Stateless, thread-safe.
 */
public final class FlowStartTimestampExtractor implements TimestampExtractor {

    @Override
    public long extract(ConsumerRecord<Object, Object> record, long partitionTime) {
        long fallback = Math.max(partitionTime, 0);
        if (!(record.value() instanceof byte[] b)) {
            return fallback;
        }
        try {
            long start = FlowRecordJson.parse(b).start();
            return start >= 0 ? start : fallback;
        } catch (FlowRecordFormatException | RuntimeException e) {
            return fallback;
        }
    }
}
