package io.siteflow.systemtest.pipeline;

import static io.siteflow.model.wire.Topics.FLOWS;
import static io.siteflow.model.wire.Topics.VERDICTS;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.VerdictFormatException;
import io.siteflow.rules.verdict.VerdictJson;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListStreamsGroupOffsetsSpec;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;

/** Producing to and reading from the siteflow topics in the pipeline tests. */
final class Topics {
    static final Duration WAIT = Duration.ofSeconds(120);

    private Topics() {
    }

    /**
     * An idempotent producer of raw keys and values with one request in flight, so that its batches reach each
     * partition in order even while the topic is being created. With more in flight, a batch that meets a
     * partition whose leader is not ready yet (NOT_LEADER_OR_FOLLOWER for a moment after the topic is created) can
     * be overtaken by the next one, which the broker (Kafka 4.4) accepts as the producer's first batch whatever its
     * sequence number (KAFKA-15591); every retry of the first batch is then refused as an out-of-order sequence
     * until the delivery timeout drops its records.
     */
    static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * Sends records to {@code siteflow.flows} keyed by their source (the local server) and waits for the acks;
     * throws when one was not written.
     */
    static void send(String bootstrap, List<FlowRecord> records) {
        try (KafkaProducer<byte[], byte[]> p = producer(bootstrap)) {
            List<Future<RecordMetadata>> acks = records.stream().map(r -> sendAsync(p, r)).toList();
            p.flush();
            for (int i = 0; i < acks.size(); i++) {
                try {
                    acks.get(i).get();
                } catch (ExecutionException e) {
                    throw new AssertionError("record " + i + " of " + acks.size() + " not written", e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted while waiting for the acks", e);
                }
            }
        }
    }

    static Future<RecordMetadata> sendAsync(KafkaProducer<byte[], byte[]> p, FlowRecord r) {
        return p.send(record(r));
    }

    /** {@code r} as a record of {@code siteflow.flows} keyed by its source. */
    static ProducerRecord<byte[], byte[]> record(FlowRecord r) {
        return new ProducerRecord<>(FLOWS, bytes(r.src()), FlowRecordJson.toBytes(r));
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** True when the consumer has read every partition up to its last stable offset. */
    private static boolean atEnd(KafkaConsumer<String, byte[]> c, List<TopicPartition> parts) {
        Map<TopicPartition, Long> end = c.endOffsets(parts);
        return parts.stream().allMatch(p -> c.position(p) >= end.get(p));
    }

    /**
     * Committed records of {@code topic} from the beginning, read until {@code done} holds for what was read and
     * the end of the topic (its last stable offset) has been reached, so records beyond what {@code done} waits
     * for (duplicates) are read too.
     */
    static List<ConsumerRecord<String, byte[]>> read(String bootstrap, String topic,
                                                     Predicate<List<ConsumerRecord<String, byte[]>>> done) {
        Map<String, Object> conf = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<String, byte[]>> got = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(conf, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(topic, WAIT).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Awaitility.await().atMost(WAIT).until(() -> {
                c.poll(Duration.ofMillis(200)).forEach(got::add);
                return done.test(got) && atEnd(c, parts);
            });
        }
        return got;
    }

    /** The window verdicts on {@code siteflow.verdicts} once {@code count} have arrived (more would show up too). */
    static List<Verdict> windowVerdicts(String bootstrap, int count) {
        List<Verdict> out = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : read(bootstrap, VERDICTS, got -> got.size() >= count)) {
            out.add(verdict(new String(r.value(), StandardCharsets.UTF_8)));
        }
        return out;
    }

    static Verdict verdict(String json) {
        try {
            return VerdictJson.parse(json);
        } catch (VerdictFormatException e) {
            throw new AssertionError("not a verdict: " + json, e);
        }
    }

    /**
     * Records of {@code siteflow.flows} the application {@code groupId} has committed, over all partitions (0
     * before its first commit). Asks for the offsets of a classic consumer group, then of a streams group
     * (KIP-1071), whichever the application runs as.
     */
    static long committed(String bootstrap, String groupId) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            Map<TopicPartition, OffsetAndMetadata> offsets;
            try {
                offsets = admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata().get();
            } catch (ExecutionException e) {
                offsets = admin.listStreamsGroupOffsets(Map.of(groupId, new ListStreamsGroupOffsetsSpec()))
                        .partitionsToOffsetAndMetadata(groupId).get();
            }
            return offsets.entrySet().stream().filter(e -> e.getKey().topic().equals(FLOWS))
                    .filter(e -> e.getValue() != null).mapToLong(e -> e.getValue().offset()).sum();
        } catch (ExecutionException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /** The end offsets of {@code siteflow.flows}, summed over partitions (transaction markers included). */
    static long flowsEnd(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            var parts = admin.describeTopics(List.of(FLOWS)).allTopicNames().get()
                    .get(FLOWS).partitions();
            Map<TopicPartition, OffsetSpec> latest = new java.util.HashMap<>();
            parts.forEach(p -> latest.put(new TopicPartition(FLOWS, p.partition()), OffsetSpec.latest()));
            return admin.listOffsets(latest).all().get().values().stream().mapToLong(i -> i.offset()).sum();
        }
    }
}
