package io.siteflow.agent.capture;

/** A live capture that could not be opened or failed while running (no such interface, no permission). */
public final class CaptureFailure extends CaptureException {
    private static final long serialVersionUID = 1L;

    public CaptureFailure(String message) {
        super(message, null);
    }

    public CaptureFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
