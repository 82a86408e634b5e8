package io.siteflow.agent.publish.kafka;

import io.siteflow.model.wire.Heartbeat;
import io.siteflow.model.wire.Topics;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes a {@link Heartbeat} to {@code siteflow.agents} every interval (10 s by default), keyed by
 * agent id, from its own daemon thread. Heartbeats are not spooled: one that cannot be sent is lost,
 * and the next one carries the totals. Close it before the producer it uses. Thread-safe.
 */
public final class HeartbeatPublisher implements AutoCloseable {
    public static final String DEFAULT_TOPIC = Topics.AGENTS;
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);
    private static final Logger LOG = LoggerFactory.getLogger(HeartbeatPublisher.class);

    private final Producer<String, byte[]> producer;
    private final String topic;
    private final Supplier<Heartbeat> source;
    private final ScheduledExecutorService timer;

    /**
     * Starts publishing at once and then every {@code interval}.
     *
     * @param source called on the publisher's thread for each heartbeat; must not return null
     */
    public HeartbeatPublisher(Producer<String, byte[]> producer, String topic, Duration interval,
            Supplier<Heartbeat> source) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.topic = Objects.requireNonNull(topic, "topic");
        this.source = Objects.requireNonNull(source, "source");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("heartbeat interval must be positive, got " + interval);
        }
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kafka-heartbeat");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::publishQuietly, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Publishes on the flow sink's producer, to {@link #DEFAULT_TOPIC}. */
    public static HeartbeatPublisher on(KafkaFlowSink sink, Duration interval, Supplier<Heartbeat> source) {
        return new HeartbeatPublisher(sink.producer(), DEFAULT_TOPIC, interval, source);
    }

    /** Sends one heartbeat now (from the caller's thread). */
    public Future<RecordMetadata> publish() {
        Heartbeat h = source.get();
        return producer.send(new ProducerRecord<>(topic, h.agent(), h.toJson()), (md, e) -> {
            if (e != null) {
                LOG.debug("heartbeat not delivered: {}", e.toString());
            }
        });
    }

    private void publishQuietly() {
        try {
            publish();
        } catch (RuntimeException e) {
            LOG.debug("heartbeat not sent: {}", e.toString());
        }
    }

    /** Stops the timer; waits up to 5 s for a heartbeat being sent. */
    @Override
    public void close() {
        timer.shutdown();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
