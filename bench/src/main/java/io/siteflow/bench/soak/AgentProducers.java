package io.siteflow.bench.soak;

import io.siteflow.agent.publish.kafka.KafkaSinkConfig;
import io.siteflow.agent.publish.kafka.ProducerSettings;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.model.wire.Heartbeat;
import io.siteflow.model.wire.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The agents' Kafka side: flow records paced to a total rate, round robin over the agents, keyed by the agent's
 * server on {@code siteflow.flows}, and every 10 s one {@link Heartbeat} per agent on {@code siteflow.agents}
 * (keyed by agent id, {@code recordsSent} = its records acknowledged), as the capture agent writes them. Agent i
 * sends through producer i % P, each with the agent's producer settings ({@link ProducerSettings}). {@link #run}
 * is called from one thread; the counters may be read from any.
 */
final class AgentProducers implements AutoCloseable {
    private static final long HEARTBEAT_NANOS = Duration.ofSeconds(10).toNanos();

    private final SoakFleet fleet;
    private final SentLog log;
    private final List<KafkaProducer<byte[], byte[]>> producers = new ArrayList<>();
    private final long[] seq;
    private final long[] runningBytes;
    private final AtomicLongArray acked;
    private final AtomicLongArray ackedBytesOf;
    private final AtomicLong ackedTotal = new AtomicLong();
    private final AtomicLong ackedBytes = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong offered = new AtomicLong();
    private volatile String firstFailure;

    AgentProducers(String bootstrap, int producerCount, SoakFleet fleet, SentLog log) {
        this.fleet = fleet;
        this.log = log;
        for (int p = 0; p < producerCount; p++) {
            // the agent's own producer settings (the spool directory is not used: no KafkaFlowSink here)
            KafkaSinkConfig agent = KafkaSinkConfig.builder(bootstrap, Path.of("unused")).clientId("soak-" + p).build();
            producers.add(new KafkaProducer<>(ProducerSettings.of(agent), new ByteArraySerializer(),
                    new ByteArraySerializer()));
        }
        this.seq = new long[fleet.agents()];
        this.runningBytes = new long[fleet.agents()];
        this.acked = new AtomicLongArray(fleet.agents());
        this.ackedBytesOf = new AtomicLongArray(fleet.agents());
    }

    /** Offers {@code rate} records/s for {@code duration}, then flushes; heartbeats at the start and every 10 s. */
    void run(int rate, Duration duration) {
        long t0 = System.nanoTime();
        long end = t0 + duration.toNanos();
        long nextHeartbeat = t0;
        long n = 0;
        int agent = 0;
        while (true) {
            long now = System.nanoTime();
            if (now >= nextHeartbeat) {
                heartbeats();
                nextHeartbeat += HEARTBEAT_NANOS;
            }
            if (now >= end) {
                break;
            }
            // a generator that fell behind catches up, but never past the end of the run nor for long between two
            // looks at the clock (heartbeats stay on time)
            long due = Math.min((long) ((now - t0) / 1e9 * rate), n + Math.max(1, rate / 100));
            for (; n < due; n++) {
                send(agent);
                agent = agent + 1 == fleet.agents() ? 0 : agent + 1;
            }
            LockSupport.parkNanos(1_000_000);
        }
        producers.forEach(KafkaProducer::flush);
        heartbeats();
        producers.forEach(KafkaProducer::flush);
    }

    private void send(int agent) {
        long s = seq[agent]++;
        FlowRecord r = fleet.record(agent, s, System.currentTimeMillis());
        long bytes = r.bytes() + r.rbytes();
        runningBytes[agent] += bytes;
        byte[] key = r.src().getBytes(StandardCharsets.UTF_8);
        log.sent(agent, System.nanoTime(), runningBytes[agent]);
        offered.incrementAndGet();
        try {
            producer(agent).send(new ProducerRecord<>(Topics.FLOWS, key, FlowRecordJson.toBytes(r)), (md, e) -> {
                if (e == null) {
                    acked.incrementAndGet(agent);
                    ackedBytesOf.addAndGet(agent, bytes);
                    ackedTotal.incrementAndGet();
                    ackedBytes.addAndGet(bytes);
                } else {
                    fail(e);
                }
            });
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    private void heartbeats() {
        long now = System.currentTimeMillis();
        for (int i = 0; i < fleet.agents(); i++) {
            String id = SoakFleet.agentId(i);
            Heartbeat h = new Heartbeat(id, SoakFleet.IFACE, now, seq[i] * 7, 0, 0, 0, acked.get(i), 0, 0);
            try {
                producer(i).send(new ProducerRecord<>(Topics.AGENTS, id.getBytes(StandardCharsets.UTF_8), h.toJson()));
            } catch (RuntimeException e) {
                fail(e);
            }
        }
    }

    private KafkaProducer<byte[], byte[]> producer(int agent) {
        return producers.get(agent % producers.size());
    }

    private void fail(Exception e) {
        if (failed.getAndIncrement() == 0) {
            firstFailure = e.toString();
        }
    }

    /**
     * Has every producer fetch the metadata of both topics (16 at a time, each retried for up to 60 s), so the
     * first send of each does not wait for it inside the paced loop (up to {@code max.block.ms}, 2 s, each).
     */
    void connect() {
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (KafkaProducer<byte[], byte[]> p : producers) {
                done.add(pool.submit(() -> metadata(p)));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("soak: a producer got no metadata: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    private static void metadata(KafkaProducer<byte[], byte[]> p) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try {
                p.partitionsFor(Topics.FLOWS);
                p.partitionsFor(Topics.AGENTS);
                return;
            } catch (org.apache.kafka.common.errors.TimeoutException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
        }
    }

    /** What was produced so far. */
    Produced produced() {
        long[] records = new long[fleet.agents()];
        long[] bytes = new long[fleet.agents()];
        for (int i = 0; i < records.length; i++) {
            records[i] = acked.get(i);
            bytes[i] = ackedBytesOf.get(i);
        }
        return new Produced(offered.get(), ackedTotal.get(), ackedBytes.get(), failed.get(), firstFailure, records,
                bytes);
    }

    /** Records handed to a producer. */
    long offered() {
        return offered.get();
    }

    /** Records acknowledged by Kafka. */
    long acked() {
        return ackedTotal.get();
    }

    @Override
    public void close() {
        producers.forEach(p -> p.close(Duration.ofSeconds(10)));
    }
}
