package io.siteflow.broker;

/**
 * The embedded broker could not start: a port in use, a data directory that cannot be formatted or
 * locked, or a broker that did not accept connections in time. The message names the port or
 * directory; the cause, when there is one, is Kafka's own exception.
 */
public final class BrokerStartException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BrokerStartException(String message) {
        super(message);
    }

    public BrokerStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
