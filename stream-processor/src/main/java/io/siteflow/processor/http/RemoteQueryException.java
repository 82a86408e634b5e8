package io.siteflow.processor.http;

/** A query to another instance failed; the message names the instance and the path. */
public final class RemoteQueryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RemoteQueryException(String message, Throwable cause) {
        super(message, cause);
    }

    public RemoteQueryException(String message) {
        super(message);
    }
}
