package io.siteflow.systemtest.pipeline;

import io.siteflow.model.FlowRecord;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * Sends a list of records to {@code siteflow.flows} at a steady rate (a batch every 10 ms) on its own thread,
 * as agents would, until all are sent. {@link #done()} throws once a record could not be written.
 * {@link #close()} stops it.
 */
public final class PacedProducer implements AutoCloseable {
    private final List<FlowRecord> records;
    private final KafkaProducer<byte[], byte[]> producer;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final AtomicInteger sent = new AtomicInteger();
    private final AtomicReference<AssertionError> failure = new AtomicReference<>();
    private final int perTick;

    private PacedProducer(String bootstrap, List<FlowRecord> records, int perSecond) {
        this.records = records;
        this.producer = Topics.producer(bootstrap);
        this.perTick = Math.max(1, perSecond / 100);
    }

    public static PacedProducer start(String bootstrap, List<FlowRecord> records, int perSecond) {
        PacedProducer p = new PacedProducer(bootstrap, records, perSecond);
        p.timer.scheduleAtFixedRate(p::tick, 0, 10, TimeUnit.MILLISECONDS);
        return p;
    }

    private void tick() {
        int from = sent.get();
        int to = Math.min(records.size(), from + perTick);
        for (int i = from; i < to; i++) {
            int n = i;
            producer.send(Topics.record(records.get(i)), (md, e) -> {
                if (e != null) {
                    failure.compareAndSet(null, new AssertionError("record " + n + " not written", e));
                }
            });
        }
        sent.set(to);
        if (to == records.size()) {
            producer.flush();
            timer.shutdown();
        }
    }

    /** Records handed to the producer so far. */
    public int sent() {
        return sent.get();
    }

    /** True once every record has been sent and acknowledged; throws when one was not written. */
    public boolean done() {
        AssertionError e = failure.get();
        if (e != null) {
            throw e;
        }
        return timer.isTerminated();
    }

    @Override
    public void close() throws InterruptedException {
        timer.shutdownNow();
        timer.awaitTermination(30, TimeUnit.SECONDS);
        producer.close();
    }
}
