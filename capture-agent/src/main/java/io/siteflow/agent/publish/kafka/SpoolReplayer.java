package io.siteflow.agent.publish.kafka;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;

/**
 * The outage half of the {@link SpoolingSender}: every retry interval it sends the oldest spooled
 * record as a probe and does not wait for the answer; once a probe is acknowledged it replays the
 * spool in order, in batches of 512, each acknowledged before it is removed from the spool. Records
 * queued meanwhile are moved into the spool first ({@code spoolQueued}), so they stay behind the
 * older ones. Sending comes first and trimming after: a batch is counted as sent once acknowledged, then removed
 * from the spool, which needs no free disk space ({@link DiskSpool#commit}). Used by the sender thread only.
 */
final class SpoolReplayer {
    private static final int BATCH = 512;

    private final KafkaSinkConfig config;
    private final Producer<String, byte[]> producer;
    private final DiskSpool spool;
    private final PublishCounters counters;
    private final SinkLog log;
    private final Runnable spoolQueued;
    private long nextProbeNanos = System.nanoTime();
    private long replayed;
    private List<Future<RecordMetadata>> probe;
    private DiskSpool.Batch probeBatch;

    SpoolReplayer(KafkaSinkConfig config, Producer<String, byte[]> producer, DiskSpool spool,
            PublishCounters counters, SinkLog log, Runnable spoolQueued) {
        this.config = config;
        this.producer = producer;
        this.spool = spool;
        this.counters = counters;
        this.log = log;
        this.spoolQueued = spoolQueued;
    }

    /** A new outage: the first probe after one retry interval ({@code now} when replaying an old spool). */
    void startOutage(boolean probeNow) {
        replayed = 0;
        nextProbeNanos = System.nanoTime() + (probeNow ? 0 : config.retryInterval().toNanos());
    }

    /** Records replayed since {@link #startOutage}. */
    long replayed() {
        return replayed;
    }

    /**
     * Probes or replays as far as the broker allows without waiting for a probe.
     *
     * @return true when the spool has been delivered and is empty: the outage is over
     * @throws IOException when the spool cannot be read or its position written
     */
    boolean step() throws IOException, InterruptedException {
        if (probe != null) {
            if (!probe.stream().allMatch(Future::isDone)) {
                return false;
            }
            List<Future<RecordMetadata>> done = probe;
            probe = null;
            if (delivered(done) < 0) {
                retryLater();
                return false;
            }
            committed(probeBatch, done.size());
            return replay();
        }
        if (System.nanoTime() - nextProbeNanos >= 0) {
            probeBatch = spool.peek(1);
            try {
                probe = sendBatch(probeBatch);
            } catch (KafkaException e) { // no metadata within max.block.ms
                retryLater();
            }
        }
        return false;
    }

    /** Waits for no probe: the next one goes after a retry interval. */
    void retryLater() {
        nextProbeNanos = System.nanoTime() + config.retryInterval().toNanos();
    }

    private boolean replay() throws IOException, InterruptedException {
        while (true) {
            spoolQueued.run();
            DiskSpool.Batch b = spool.peek(BATCH);
            if (b.isEmpty()) {
                return true;
            }
            List<Future<RecordMetadata>> futures;
            try {
                futures = sendBatch(b);
            } catch (KafkaException e) {
                producer.flush();
                retryLater();
                return false;
            }
            producer.flush();
            if (delivered(futures) < 0) {
                retryLater();
                return false;
            }
            committed(b, futures.size());
        }
    }

    /** Sends the records of a spool batch; records that cannot be decoded are counted as rejected. */
    private List<Future<RecordMetadata>> sendBatch(DiskSpool.Batch b) {
        List<Future<RecordMetadata>> futures = new ArrayList<>(b.records().size());
        for (byte[] bytes : b.records()) {
            SpooledRecord sr;
            try {
                sr = SpooledRecord.decode(bytes);
            } catch (IllegalArgumentException e) {
                counters.rejected.incrementAndGet();
                log.rejected(e);
                continue;
            }
            futures.add(producer.send(new ProducerRecord<>(config.topic(), sr.key(), sr.value())));
        }
        return futures;
    }

    /**
     * The number of sends acknowledged, or -1 when one failed and may succeed later; the futures are
     * done or flushed. Records refused for good are counted as rejected and do not fail the batch.
     */
    private int delivered(List<Future<RecordMetadata>> futures) throws InterruptedException {
        int ok = 0;
        for (Future<RecordMetadata> f : futures) {
            try {
                f.get();
                ok++;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof Exception cause) || !SinkLog.isPermanent(cause)) {
                    return -1;
                }
                counters.rejected.incrementAndGet();
                log.rejected(cause);
            }
        }
        return ok;
    }

    /** Counts what went out, then trims the spool: the counters hold every record sent even if trimming fails. */
    private void committed(DiskSpool.Batch b, int delivered) throws IOException {
        counters.replayed.addAndGet(delivered);
        counters.sent.addAndGet(delivered);
        replayed += delivered;
        spool.commit(b);
    }
}
