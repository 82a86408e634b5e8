package io.siteflow.agent.capture;

/**
 * A capture that could not go on. Subclasses say what the caller can do: {@link CaptureFileException}
 * (a file that cannot be read whole: exit code 2 after reporting what was read) and
 * {@link CaptureFailure} (an interface that cannot be opened or read).
 */
public abstract sealed class CaptureException extends Exception permits CaptureFileException, CaptureFailure {
    private static final long serialVersionUID = 1L;

    protected CaptureException(String message, Throwable cause) {
        super(message, cause);
    }
}
