package io.siteflow.agent.publish.kafka;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread that talks to Kafka for a {@link KafkaFlowSink}. Online it sends queued records;
 * a failed delivery (reported by the producer's callback) is appended to the spool, and the first one
 * starts an outage: the sender waits until every record in flight is delivered or spooled, then
 * spools everything new behind them, while a {@link SpoolReplayer} probes the broker and replays
 * the spool in order. When the spool is empty the sender is online again. So records of one
 * partition keep their order, and a record reaches Kafka at least once (twice only when an
 * acknowledgement was lost).
 */
final class SpoolingSender implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(SpoolingSender.class);
    private static final int BATCH = 512; // records taken from the queue at once
    private static final long SYNC_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final KafkaSinkConfig config;
    private final BlockingQueue<FlowRecord> queue;
    private final Producer<String, byte[]> producer;
    private final DiskSpool spool;
    private final PublishCounters counters;
    private final SinkLog log;
    final ConcurrentLinkedQueue<CompletableFuture<Void>> flushRequests = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean deliveryFailed = new AtomicBoolean();
    private final List<SpooledRecord> held = new ArrayList<>();
    private volatile boolean running = true;
    private volatile Thread thread;
    private volatile boolean closing;
    private volatile boolean outage;
    private long outageStartNanos;
    private long lastSyncNanos;
    private final SpoolReplayer replayer;

    SpoolingSender(KafkaSinkConfig config, BlockingQueue<FlowRecord> queue, Producer<String, byte[]> producer,
            DiskSpool spool, PublishCounters counters, SinkLog log) {
        this.config = config;
        this.queue = queue;
        this.producer = producer;
        this.spool = spool;
        this.counters = counters;
        this.log = log;
        this.lastSyncNanos = System.nanoTime();
        this.replayer = new SpoolReplayer(config, producer, spool, counters, log, this::spoolQueuedNow);
    }

    boolean inOutage() {
        return outage;
    }

    /** Asks the loop to finish: queued records are still sent or spooled. */
    void stop() {
        running = false;
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        if (!spool.isEmpty()) {
            LOG.info("publish: kafka: spool {} holds {} records from an earlier run; sending them first",
                    spool.dir(), spool.records());
            outage = true;
            outageStartNanos = System.nanoTime();
            replayer.startOutage(true);
        }
        try {
            while (running || !queue.isEmpty()) {
                step();
            }
            finish();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            finish();
        } catch (RuntimeException | IOException e) {
            LOG.error("publish: kafka: sender stopped: {}", e.toString(), e);
            finish();
        }
    }

    private void step() throws InterruptedException, IOException {
        if (!outage && deliveryFailed.get()) {
            enterOutage();
        }
        if (outage) {
            spoolQueued(TimeUnit.MILLISECONDS.toNanos(20));
            syncEverySecond();
            try {
                if (replayer.step()) {
                    endOutage();
                }
            } catch (IOException e) { // the spool cannot be read or its position written
                log.spoolBroken(spool, e);
                replayer.retryLater();
            }
        } else {
            sendQueued();
        }
        serveFlushRequests();
    }

    private void sendQueued() throws InterruptedException {
        FlowRecord first = queue.poll(20, TimeUnit.MILLISECONDS);
        if (first == null) {
            return;
        }
        List<FlowRecord> batch = new ArrayList<>(BATCH);
        batch.add(first);
        queue.drainTo(batch, BATCH - 1);
        for (FlowRecord r : batch) {
            SpooledRecord sr = encode(r);
            if (sr == null) {
                continue;
            }
            if (deliveryFailed.get()) {
                held.add(sr); // behind the records still in flight, which may fail too
            } else {
                send(sr);
            }
        }
    }

    /** Key and value of a record; null (counted as rejected) when the key function or the codec fails. */
    private SpooledRecord encode(FlowRecord r) {
        try {
            return new SpooledRecord(config.keyFunction().apply(r), FlowRecordJson.toBytes(r));
        } catch (RuntimeException e) {
            counters.rejected.incrementAndGet();
            log.rejected(e);
            return null;
        }
    }

    private void send(SpooledRecord sr) {
        try {
            producer.send(new ProducerRecord<>(config.topic(), sr.key(), sr.value()), (md, e) -> onResult(sr, e));
        } catch (KafkaException e) { // no metadata or no buffer space within max.block.ms
            log.outageCause(e);
            held.add(sr);
            deliveryFailed.set(true);
        }
    }

    private void onResult(SpooledRecord sr, Exception e) {
        if (e == null) {
            counters.sent.incrementAndGet();
        } else if (!closing && SinkLog.isPermanent(e)) {
            counters.rejected.incrementAndGet();
            log.rejected(e);
        } else {
            log.outageCause(e);
            if (Thread.currentThread() == thread) {
                held.add(sr); // failed inside send(): records in flight go first
            } else {
                toSpool(sr);
            }
            deliveryFailed.set(true);
        }
    }

    private void toSpool(SpooledRecord sr) {
        try {
            if (spool.append(sr.encode())) {
                counters.spooled.incrementAndGet();
            } else {
                counters.dropped.incrementAndGet();
                log.spoolFull(spool);
            }
        } catch (IOException e) {
            counters.dropped.incrementAndGet();
            log.spoolBroken(spool, e);
        }
    }

    private void enterOutage() {
        outage = true;
        outageStartNanos = System.nanoTime();
        log.outageStarted(config.bootstrap(), spool.dir());
        producer.flush(); // every record in flight is now delivered or spooled
        held.forEach(this::toSpool);
        held.clear();
        replayer.startOutage(false);
    }

    private void spoolQueued(long waitNanos) throws InterruptedException {
        FlowRecord r = queue.poll(waitNanos, TimeUnit.NANOSECONDS);
        if (r != null) {
            spool(r);
            spoolQueuedNow();
        }
    }

    /** Moves what is queued now into the spool, behind what is there. */
    private void spoolQueuedNow() {
        FlowRecord r;
        while ((r = queue.poll()) != null) {
            spool(r);
        }
    }

    private void spool(FlowRecord r) {
        SpooledRecord sr = encode(r);
        if (sr != null) {
            toSpool(sr);
        }
    }

    private void syncEverySecond() {
        long now = System.nanoTime();
        if (now - lastSyncNanos < SYNC_INTERVAL_NANOS) {
            return;
        }
        lastSyncNanos = now;
        try {
            spool.sync();
        } catch (IOException e) {
            log.spoolBroken(spool, e);
        }
    }

    private void endOutage() {
        outage = false;
        deliveryFailed.set(false);
        log.outageEnded(Duration.ofNanos(System.nanoTime() - outageStartNanos), replayer.replayed());
    }

    private void serveFlushRequests() {
        if (flushRequests.isEmpty() || !queue.isEmpty()) {
            return;
        }
        if (outage) {
            try {
                spool.sync();
            } catch (IOException e) {
                log.spoolBroken(spool, e);
            }
        } else {
            producer.flush();
            if (deliveryFailed.get()) {
                enterOutage();
            }
        }
        CompletableFuture<Void> f;
        while ((f = flushRequests.poll()) != null) {
            f.complete(null);
        }
    }

    private void finish() {
        try {
            if (!outage && deliveryFailed.get()) {
                enterOutage();
            }
            if (!outage) {
                producer.flush();
            }
        } catch (RuntimeException e) {
            LOG.warn("publish: kafka: flush at close failed: {}", e.toString());
        }
        closing = true;
        producer.close(outage ? Duration.ZERO : Duration.ofSeconds(5)); // aborted sends are spooled
        held.forEach(this::toSpool);
        held.clear();
        spoolQueuedNow();
        try {
            spool.close();
        } catch (IOException e) {
            log.spoolBroken(spool, e);
        }
        flushRequests.forEach(f -> f.complete(null));
    }
}
