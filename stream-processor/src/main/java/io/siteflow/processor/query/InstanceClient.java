package io.siteflow.processor.query;

import org.apache.kafka.streams.state.HostInfo;

/**
 * Reaches another processor instance of the same application (its {@code application.server} host and port).
 * The transport is the HTTP side's business; {@link #NONE} serves a single instance. Thread-safe.
 */
public interface InstanceClient {

    /** No remote instances: asking one fails. */
    InstanceClient NONE = host -> {
        throw new IllegalStateException("no client for remote instance " + host.host() + ":" + host.port());
    };

    /**
     * The view of the stores of the instance at {@code host}. Its methods may throw {@link RemoteQueryException}
     * when the instance cannot be reached.
     */
    StoreView at(HostInfo host);

    /** A remote instance did not answer. */
    final class RemoteQueryException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public RemoteQueryException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
