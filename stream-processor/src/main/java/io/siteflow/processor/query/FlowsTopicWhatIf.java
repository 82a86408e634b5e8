package io.siteflow.processor.query;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordFormatException;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.model.wire.Topics;
import io.siteflow.processor.topology.ActiveModel;
import io.siteflow.rules.whatif.WhatIf;
import io.siteflow.rules.whatif.WhatIfReport;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The what-if over every record {@code siteflow.flows} holds (its retention, 7 days by default): the records are
 * read from the oldest to the end offsets of the moment asked, with the site model in force, and folded with the
 * same {@link WhatIf} as {@code siteflow whatif}, so the same records give the same numbers. As the topology does,
 * it leaves out unreadable values and records whose id was already read (an agent's spool sent again; one bit
 * per id, {@link SeenIdBits}); {@link WhatIf}
 * counts the server's own flows only from its observer (the observer rule, in topic order). Why the topic and not a
 * store: the what-if needs the server's intra-site flows and the intra-site RTT, which the audit never keeps.
 * Costs one pass over the topic per question; the last answer is kept while the end offsets and the model stay.
 * Thread-safe (one question at a time).
 */
public final class FlowsTopicWhatIf implements WhatIfSource {
    private static final Duration POLL = Duration.ofMillis(200);
    private final Map<String, Object> client;
    private final Supplier<Optional<ActiveModel>> model;
    private final Duration timeout;
    private String lastKey;
    private WhatIfReport last;

    /**
     * @param client  bootstrap and security settings of a plain Kafka client
     * @param model   the site model in force
     * @param timeout how long one pass over the topic may take
     */
    public FlowsTopicWhatIf(Map<String, Object> client, Supplier<Optional<ActiveModel>> model, Duration timeout) {
        this.client = Map.copyOf(client);
        this.model = model;
        this.timeout = timeout;
    }

    @Override
    public synchronized WhatIfReport whatIf(String server, String site) {
        ActiveModel m = model.get().orElseThrow(() -> new Unavailable("what-if: no site model in force", null));
        WhatIf w = new WhatIf(m.model(), server, site); // an unknown name is refused before reading anything
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties())) {
            List<TopicPartition> parts = consumer.partitionsFor(Topics.FLOWS, timeout).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts, timeout);
            String key = m.model().version() + " " + server + " " + site + " " + end;
            if (key.equals(lastKey)) {
                return last;
            }
            read(consumer, end, w);
            last = w.report();
            lastKey = key;
            return last;
        } catch (KafkaException e) {
            throw new Unavailable("what-if: reading " + Topics.FLOWS + ": " + e.getMessage(), e);
        }
    }

    private void read(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end, WhatIf w) {
        SeenIdBits seen = new SeenIdBits();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!reached(consumer, end)) {
            if (System.nanoTime() > deadline) {
                throw new Unavailable("what-if: " + Topics.FLOWS + " not read to its end within " + timeout, null);
            }
            for (ConsumerRecord<byte[], byte[]> cr : consumer.poll(POLL)) {
                if (cr.offset() >= end.get(new TopicPartition(cr.topic(), cr.partition()))) {
                    continue; // arrived after the question
                }
                FlowRecord r;
                try {
                    r = FlowRecordJson.parse(cr.value() == null ? new byte[0] : cr.value());
                } catch (FlowRecordFormatException e) {
                    continue;
                }
                if (seen.add(r.id())) {
                    w.accept(r);
                }
            }
        }
    }

    private static boolean reached(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }

    private Map<String, Object> properties() {
        Map<String, Object> p = new HashMap<>(client);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        return p;
    }
}
