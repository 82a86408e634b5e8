package io.siteflow.systemtest;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordFormatException;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.model.wire.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;

/** Reads {@code siteflow.flows} from the beginning in tests. */
final class FlowTopic {
    /** One record as read: its key and parsed value. */
    record Received(String key, FlowRecord record) {
    }

    private FlowTopic() {
    }

    /** All records, partition by partition, once {@code distinctIds} different ids have arrived. */
    static List<Received> readAll(String bootstrap, int distinctIds, Duration wait) {
        Map<String, Object> conf = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<Received> out = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(conf, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(Topics.FLOWS, wait).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Awaitility.await().atMost(wait).until(() -> {
                for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) {
                    Received got = new Received(r.key(), parse(r.value()));
                    out.add(got);
                    ids.add(got.record().id());
                }
                return ids.size() >= distinctIds;
            });
        }
        return out;
    }

    private static FlowRecord parse(byte[] json) {
        try {
            return FlowRecordJson.parse(json);
        } catch (FlowRecordFormatException e) {
            throw new AssertionError("not a flow record: " + e.getMessage(), e);
        }
    }
}
