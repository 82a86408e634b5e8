package io.siteflow.bench;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordFormatException;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.model.wire.Topics;
import io.siteflow.processor.app.ProcessorSettings;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;

/**
 * What Kafka Streams itself costs, for {@code bench/streams.sh}: a topology that only reads {@code siteflow.flows}
 * and parses each record with {@link FlowRecordJson} (what the bare consumer does), run with the processor's
 * settings ({@code exactly_once_v2}, the same commit interval, one stream thread). Its rate is the ceiling of
 * any Streams topology over these records on this machine: the distance from it to the bare consumer is Kafka
 * Streams' own per-record work (task queues, record context, exactly-once commits), not siteflow's. Timed as the
 * bare consumer is: over each round's records, read from the beginning of the topic.
 */
final class StreamsFloor {
    private StreamsFloor() {
    }

    /** Records/s over each round of {@code n} records after {@code warmup}. */
    static double[] run(String bootstrap, Path stateDir, int warmup, int n, int rounds) throws InterruptedException {
        RoundClock clock = new RoundClock(warmup, n, rounds);
        AtomicLong read = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        StreamsBuilder b = new StreamsBuilder();
        b.stream(Topics.FLOWS, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray())).foreach((k, v) -> {
            long i = read.get();
            clock.before(i);
            try {
                FlowRecord f = FlowRecordJson.parse(v);
                bytes.addAndGet(f.bytes() + f.rbytes());
            } catch (FlowRecordFormatException e) {
                throw new IllegalStateException(e);
            }
            clock.after(i);
            read.incrementAndGet(); // counted when done: the main thread stops the application at the total
        });
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "streams-floor");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, String.valueOf(ProcessorSettings.COMMIT_INTERVAL_MS));
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, "1");
        p.put("consumer.auto.offset.reset", "earliest");
        try (KafkaStreams streams = new KafkaStreams(b.build(), p)) {
            streams.start();
            while (read.get() < clock.total()) {
                Thread.sleep(50);
            }
        }
        double[] rates = clock.rates("streams floor");
        System.err.printf(Locale.ROOT, "streams-bench: streams floor read %d records (%d bytes)%n", read.get(),
                bytes.get());
        return rates;
    }
}
