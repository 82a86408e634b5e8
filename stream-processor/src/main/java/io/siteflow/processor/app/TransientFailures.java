package io.siteflow.processor.app;

import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a stream thread's uncaught exception does: a failure caused by Kafka being unreachable for too long (a
 * timeout or other retriable error, an aborted transaction; e.g. a commit that found no broker for 60 s)
 * replaces the thread, which restores its tasks from the changelogs and goes on once the broker is back
 * (exactly-once: the aborted transaction's records never count); anything else shuts the client down.
 * Stateless, thread-safe.
 */
final class TransientFailures implements StreamsUncaughtExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(TransientFailures.class);

    @Override
    public StreamThreadExceptionResponse handle(Throwable e) {
        if (transient_(e)) {
            LOG.warn("stream thread failed while Kafka was unreachable ({}); replacing it", e.toString());
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        }
        LOG.error("stream thread failed; stopping", e);
        return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    }

    /** True when a cause is a retriable Kafka error (timeouts included) or an aborted transaction. */
    static boolean transient_(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RetriableException || t instanceof TransactionAbortableException) {
                return true;
            }
        }
        return false;
    }
}
