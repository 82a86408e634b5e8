package io.siteflow.agent.publish.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.Cidr;
import io.siteflow.model.FlowRecordFormatException;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.model.wire.FlowKeys;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaFlowSinkTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path spoolDir;

    private static MockProducer<String, byte[]> producer(boolean autoComplete) {
        return new MockProducer<>(autoComplete, null, new StringSerializer(), new ByteArraySerializer());
    }

    private KafkaSinkConfig.Builder config() {
        return KafkaSinkConfig.builder("127.0.0.1:9", spoolDir)
                .keyFunction(FlowKeys.localServer(List.of(Cidr.parse("10.1.0.0/16"))))
                .retryInterval(Duration.ofMillis(50));
    }

    private static void failSends(MockProducer<String, byte[]> p, boolean fail) {
        synchronized (p) {
            p.sendException = fail ? new TimeoutException("Expiring 3 record(s): 5001 ms has passed") : null;
        }
    }

    private static List<String> ids(MockProducer<String, byte[]> p) {
        return p.history().stream().map(r -> idOf(r.value())).toList();
    }

    private static String idOf(byte[] json) {
        try {
            return FlowRecordJson.parse(json).id();
        } catch (FlowRecordFormatException e) {
            throw new AssertionError(e);
        }
    }

    private static List<String> expectedIds(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "run1-" + i).toList();
    }

    @Test
    void sendsRecordsInOrderKeyedByTheLocalServer() {
        MockProducer<String, byte[]> p = producer(true);
        try (KafkaFlowSink sink = KafkaFlowSink.start(config().build(), props -> p)) {
            sink.accept(Flows.flow(0, "10.2.0.20", "10.1.0.10"));
            sink.accept(Flows.flow(1, "10.1.0.10", "10.2.0.21"));
            sink.accept(Flows.flow(2, "192.168.1.5", "192.168.1.6"));
            sink.flush();

            assertThat(p.history()).extracting(ProducerRecord::topic).containsOnly("siteflow.flows");
            assertThat(p.history()).extracting(ProducerRecord::key)
                    .containsExactly("10.2.0.20", "10.2.0.21", "192.168.1.5");
            assertThat(ids(p)).containsExactly("run1-0", "run1-1", "run1-2");
            assertThat(sink.stats()).isEqualTo(new PublishStats(3, 3, 0, 0, 0, 0, 0, 0, 0, false));
        }
    }

    @Test
    void spoolsWhileKafkaFailsAndReplaysInOrderBeforeNewRecords() {
        MockProducer<String, byte[]> p = producer(true);
        try (KafkaFlowSink sink = KafkaFlowSink.start(config().build(), props -> p)) {
            failSends(p, true);
            for (int i = 0; i < 10; i++) {
                sink.accept(Flows.flow(i, "10.2.0.20", "10.1.0.10"));
            }
            Awaitility.await().atMost(WAIT).until(() -> sink.stats().spooled() == 10);
            assertThat(sink.stats().outage()).isTrue();

            failSends(p, false);
            for (int i = 10; i < 15; i++) {
                sink.accept(Flows.flow(i, "10.2.0.20", "10.1.0.10"));
            }
            Awaitility.await().atMost(WAIT).until(() -> !sink.stats().outage() && sink.stats().sent() == 15);
            sink.flush();

            assertThat(ids(p)).isEqualTo(expectedIds(0, 15));
            PublishStats s = sink.stats();
            assertThat(s.replayed()).isEqualTo(s.spooled());
            assertThat(s.spooled()).isBetween(10L, 15L);
            assertThat(s.dropped()).isZero();
            assertThat(s.spoolRecords()).isZero();
        }
    }

    @Test
    void dropsTheNewestRecordsWhenTheSpoolIsFull() {
        MockProducer<String, byte[]> p = producer(true);
        int frame = 8 + 4 + "10.2.0.20".length() + FlowRecordJson.toBytes(Flows.flow(10, "10.2.0.20", "10.1.0.10")).length;
        KafkaSinkConfig c = config().spoolMaxBytes(8 + 4L * frame).spoolSegmentBytes(8 + 4L * frame).build();
        try (KafkaFlowSink sink = KafkaFlowSink.start(c, props -> p)) {
            failSends(p, true);
            for (int i = 10; i < 20; i++) {
                sink.accept(Flows.flow(i, "10.2.0.20", "10.1.0.10"));
            }
            Awaitility.await().atMost(WAIT).until(() -> sink.stats().spooled() + sink.stats().dropped() == 10);
            assertThat(sink.stats().spooled()).isEqualTo(4);
            assertThat(sink.stats().dropped()).isEqualTo(6);

            failSends(p, false);
            Awaitility.await().atMost(WAIT).until(() -> !sink.stats().outage());
            assertThat(ids(p)).isEqualTo(expectedIds(10, 14));
        }
    }

    @Test
    void keepsUndeliveredRecordsForTheNextStart() {
        MockProducer<String, byte[]> down = producer(true);
        KafkaFlowSink first = KafkaFlowSink.start(config().build(), props -> down);
        failSends(down, true);
        for (int i = 0; i < 5; i++) {
            first.accept(Flows.flow(i, "10.2.0.20", "10.1.0.10"));
        }
        first.close();
        assertThat(first.stats().spoolRecords()).isEqualTo(5);
        assertThat(down.history()).isEmpty();

        MockProducer<String, byte[]> up = producer(true);
        try (KafkaFlowSink second = KafkaFlowSink.start(config().build(), props -> up)) {
            Awaitility.await().atMost(WAIT).until(() -> !second.stats().outage());
            second.accept(Flows.flow(5, "10.2.0.20", "10.1.0.10"));
            second.flush();
            assertThat(ids(up)).isEqualTo(expectedIds(0, 6));
            assertThat(second.stats()).isEqualTo(new PublishStats(1, 6, 0, 5, 0, 0, 0, 0, 0, false));
        }
    }

    @Test
    void countsARecordTheBrokerRefusesForGoodAsRejected() {
        MockProducer<String, byte[]> p = producer(false);
        try (KafkaFlowSink sink = KafkaFlowSink.start(config().build(), props -> p)) {
            sink.accept(Flows.flow(0, "10.2.0.20", "10.1.0.10"));
            Awaitility.await().atMost(WAIT).until(() -> p.history().size() == 1);
            p.errorNext(new RecordTooLargeException("too large"));
            assertThat(sink.stats().rejected()).isEqualTo(1);
            assertThat(sink.stats().spooled()).isZero();
            assertThat(sink.stats().outage()).isFalse();
        }
    }

    @Test
    void countsARecordItCannotKeyAsRejectedAndGoesOn() {
        MockProducer<String, byte[]> p = producer(true);
        KafkaSinkConfig c = config().keyFunction(r -> {
            if (r.id().equals("run1-1")) {
                throw new IllegalStateException("no key for " + r.id());
            }
            return r.src();
        }).build();
        try (KafkaFlowSink sink = KafkaFlowSink.start(c, props -> p)) {
            IntStream.range(0, 3).forEach(i -> sink.accept(Flows.flow(i, "10.2.0.20", "10.1.0.10")));
            sink.flush();
            assertThat(ids(p)).containsExactly("run1-0", "run1-2");
            assertThat(sink.stats()).isEqualTo(new PublishStats(3, 2, 0, 0, 0, 1, 0, 0, 0, false));
        }
    }

    @Test
    void countsRecordsAcceptedAfterCloseAsDropped() {
        MockProducer<String, byte[]> p = producer(true);
        KafkaFlowSink sink = KafkaFlowSink.start(config().build(), props -> p);
        sink.close();
        sink.accept(Flows.flow(0, "10.2.0.20", "10.1.0.10"));
        assertThat(sink.stats().accepted()).isEqualTo(1);
        assertThat(sink.stats().dropped()).isEqualTo(1);
    }
}
