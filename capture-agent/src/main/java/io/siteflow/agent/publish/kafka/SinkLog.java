package io.siteflow.agent.publish.kafka;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The flow sink's log lines, each at most once per episode: an outage is logged when it starts and
 * when it ends, a full queue or spool once until the next outage ends. Thread-safe.
 */
final class SinkLog {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaFlowSink.class);

    private final AtomicReference<Exception> cause = new AtomicReference<>();
    private final AtomicReference<String> brokerProblem = new AtomicReference<>();
    private final AtomicBoolean queueFull = new AtomicBoolean();
    private final AtomicBoolean spoolFull = new AtomicBoolean();
    private final AtomicBoolean spoolBroken = new AtomicBoolean();
    private final AtomicBoolean rejected = new AtomicBoolean();

    /** A broker refusal that retrying cannot cure: the record is counted as rejected, not spooled. */
    static boolean isPermanent(Exception e) {
        return e instanceof RecordTooLargeException || e instanceof SerializationException;
    }

    void outageCause(Exception e) {
        cause.compareAndSet(null, e);
    }

    /** What {@link BrokerCheck} found; named as the cause of the outages that follow. */
    void brokerProblem(String problem) {
        brokerProblem.set(problem);
        LOG.error("publish: {}; records go to the spool until {}", problem, until(problem));
    }

    void outageStarted(String bootstrap, Path spoolDir) {
        Exception e = cause.get();
        String problem = brokerProblem.get();
        LOG.warn("publish: kafka: cannot deliver to {} ({}); spooling records to {} until {}", bootstrap,
                problem != null ? problem : e == null ? "unknown cause" : e.getClass().getSimpleName() + ": "
                + e.getMessage(), spoolDir, until(problem));
    }

    /** What ends the spooling: the broker coming back, or an administrator granting a missing ACL. */
    private static String until(String problem) {
        return problem != null && problem.endsWith("(ACL)") ? "an administrator grants it" : "it is back";
    }

    void outageEnded(Duration length, long replayed) {
        LOG.info("publish: kafka: delivering again after {} s; {} records replayed from the spool",
                String.format("%.1f", length.toMillis() / 1000.0), replayed);
        cause.set(null);
        queueFull.set(false);
        spoolFull.set(false);
        spoolBroken.set(false);
    }

    void queueFull(int capacity) {
        if (queueFull.compareAndSet(false, true)) {
            LOG.warn("publish: kafka: hand-off queue full ({} records): dropping new records (counted)", capacity);
        }
    }

    void spoolFull(DiskSpool spool) {
        if (spoolFull.compareAndSet(false, true)) {
            LOG.error("publish: kafka: spool {} is full ({} bytes): dropping new records (counted)", spool.dir(),
                    spool.bytes());
        }
    }

    void spoolBroken(DiskSpool spool, Exception e) {
        if (spoolBroken.compareAndSet(false, true)) {
            LOG.error("publish: kafka: spool {}: {}: dropping records that cannot be written (counted)",
                    spool.dir(), e.toString());
        }
    }

    void rejected(Exception e) {
        if (rejected.compareAndSet(false, true)) {
            LOG.error("publish: kafka: broker refused a record for good ({}); such records are counted as rejected",
                    e.toString());
        }
    }
}
