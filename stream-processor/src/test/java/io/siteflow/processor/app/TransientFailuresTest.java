package io.siteflow.processor.app;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TransactionAbortableException;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;

class TransientFailuresTest {
    private final TransientFailures handler = new TransientFailures();

    @Test
    void replacesTheThreadWhenACommitFoundNoBrokerInTime() {
        // as seen after a 60 s broker outage: commit -> add offsets -> aborted transaction -> metadata timeout
        Throwable e = new StreamsException("Error encountered trying to add offsets to a transaction",
                new KafkaException("Cannot execute transactional method because we are in an error state",
                        new TransactionAbortableException("Transaction Request was aborted after exhausting retries.",
                                new TimeoutException("Topic x-changelog not present in metadata after 60000 ms."))));

        assertThat(handler.handle(e)).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(handler.handle(new TimeoutException("t"))).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    }

    @Test
    void shutsTheClientDownForAnythingElse() {
        assertThat(handler.handle(new StreamsException("bug", new IllegalStateException("store"))))
                .isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        assertThat(handler.handle(new NullPointerException())).isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
    }
}
