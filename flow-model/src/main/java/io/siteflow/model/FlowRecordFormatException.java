package io.siteflow.model;

/** A flow record that could not be read: the message names the field or the byte offset. */
public final class FlowRecordFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    public FlowRecordFormatException(String message) {
        super(message);
    }

    public FlowRecordFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
