package io.siteflow.agent.publish.kafka;

import io.siteflow.agent.flow.FlowSink;
import io.siteflow.model.FlowRecord;
import io.siteflow.kafka.KafkaClientProperties;
import io.siteflow.kafka.BrokerReachability;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes flow records to Kafka ({@code siteflow.flows}), keyed by the caller's key function, with
 * FlowRecordJson values. {@link #accept} only offers the record to a bounded queue and never blocks;
 * one sender thread sends to Kafka, and spools to a {@link DiskSpool} what cannot be delivered,
 * replaying it in order before new records once the broker is back (see
 * {@code capture-agent/docs/publish.md}). Delivery is at least once; records carry unique ids.
 *
 * <p>Thread-safety: {@code accept}, {@code flush}, {@code stats} and {@code close} may be called from
 * any thread. After {@code close}, accepted records are counted as dropped.
 */
public final class KafkaFlowSink implements FlowSink {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaFlowSink.class);

    private final KafkaSinkConfig config;
    private final BlockingQueue<FlowRecord> queue;
    private final Producer<String, byte[]> producer;
    private final DiskSpool spool;
    private final PublishCounters counters = new PublishCounters();
    private final SinkLog log = new SinkLog();
    private final SpoolingSender sender;
    private final Thread thread;
    private volatile BrokerCheck check;
    private volatile boolean closed;

    /**
     * Opens the spool, creates the producer and starts the sender thread.
     *
     * @throws UncheckedIOException "publish: kafka: spool DIR: ..." when the spool cannot be opened
     * @throws KafkaException       "publish: kafka: ..." for producer properties Kafka refuses
     */
    public static KafkaFlowSink start(KafkaSinkConfig config) {
        Map<String, Object> props = ProducerSettings.of(config);
        LOG.info("publish: kafka: producer {}", KafkaClientProperties.describe(props));
        KafkaFlowSink sink = start(config, p -> {
            try {
                return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
            } catch (KafkaException e) { // "No resolvable bootstrap urls": say which and why
                String dns = e.getCause() != null && String.valueOf(e.getCause().getMessage()).contains("bootstrap")
                        ? BrokerReachability.unreachable(config.bootstrap(), Duration.ofSeconds(2)).orElse(null) : null;
                throw new KafkaException("publish: " + (dns != null ? dns : "kafka: " + e.getMessage()), e);
            }
        });
        sink.check = BrokerCheck.start(config, sink.log);
        return sink;
    }

    /** As {@link #start(KafkaSinkConfig)} with a producer made by {@code factory} (tests use a MockProducer). */
    public static KafkaFlowSink start(KafkaSinkConfig config,
            Function<Map<String, Object>, Producer<String, byte[]>> factory) {
        DiskSpool spool;
        try {
            spool = DiskSpool.open(config.spoolDir(), config.spoolMaxBytes(), config.spoolSegmentBytes(),
                    w -> LOG.warn("publish: kafka: spool: {}", w));
        } catch (IOException e) {
            throw new UncheckedIOException("publish: kafka: spool " + config.spoolDir() + ": " + e.getMessage(), e);
        }
        try {
            return new KafkaFlowSink(config, factory.apply(ProducerSettings.of(config)), spool);
        } catch (RuntimeException e) {
            try {
                spool.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private KafkaFlowSink(KafkaSinkConfig config, Producer<String, byte[]> producer, DiskSpool spool) {
        this.config = config;
        this.queue = new ArrayBlockingQueue<>(config.queueCapacity());
        this.producer = producer;
        this.spool = spool;
        this.sender = new SpoolingSender(config, queue, producer, spool, counters, log);
        this.thread = new Thread(sender, "kafka-flow-sender");
        thread.setDaemon(true);
        thread.start();
    }

    /** Queues one record; never blocks. A full queue, or a closed sink, drops it (counted). */
    @Override
    public void accept(FlowRecord r) {
        counters.accepted.incrementAndGet();
        if (closed) {
            counters.dropped.incrementAndGet();
        } else if (!queue.offer(r)) {
            counters.dropped.incrementAndGet();
            log.queueFull(config.queueCapacity());
        }
    }

    /**
     * Waits until every record accepted before this call is acknowledged by Kafka or written to the
     * spool; gives up with a warning after the producer's delivery timeout plus 30 s.
     */
    @Override
    public void flush() {
        if (closed) {
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        sender.flushRequests.add(done);
        try {
            done.get(flushTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("publish: kafka: flush did not finish within {} s", flushTimeout().toSeconds());
        }
    }

    /** Current counters. */
    public PublishStats stats() {
        return new PublishStats(counters.accepted.get(), counters.sent.get(), counters.spooled.get(),
                counters.replayed.get(), counters.dropped.get(), counters.rejected.get(), spool.records(),
                spool.bytes(), queue.size(), sender.inOutage());
    }

    /**
     * Why the cluster could not be used when the sink started ({@link BrokerCheck}: the address and connection
     * refused, DNS, TLS handshake or authentication, or an ACL the principal lacks, e.g.
     * {@code kafka: principal User:agent2 may not WRITE topic siteflow.flows (ACL)}), waiting up to ~45 s for the
     * check to end; empty when it answered and allows the agent's writes, or for a sink made with a producer factory
     * (no check).
     */
    public Optional<String> brokerProblem() {
        BrokerCheck c = check;
        return c == null ? Optional.empty() : c.await();
    }

    /** Where records that could not be delivered wait. */
    public Path spoolDir() {
        return spool.dir();
    }

    /** The producer, shared with a {@link HeartbeatPublisher}; closed by {@link #close()}. */
    Producer<String, byte[]> producer() {
        return producer;
    }

    /**
     * Stops taking records, sends or spools what is queued, closes the producer (records it could not
     * deliver stay in the spool for the next start) and the spool. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        sender.stop();
        try {
            thread.join(flushTimeout().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.warn("publish: kafka: sender did not stop within {} s", flushTimeout().toSeconds());
        }
        PublishStats s = stats();
        LOG.info("publish: kafka: closed; accepted {}, sent {}, spooled {}, replayed {}, dropped {}, rejected {}, "
                + "left in spool {}", s.accepted(), s.sent(), s.spooled(), s.replayed(), s.dropped(), s.rejected(),
                s.spoolRecords());
    }

    private Duration flushTimeout() {
        Object v = ProducerSettings.of(config).get("delivery.timeout.ms");
        return Duration.ofMillis(Long.parseLong(String.valueOf(v))).plusSeconds(30);
    }
}
