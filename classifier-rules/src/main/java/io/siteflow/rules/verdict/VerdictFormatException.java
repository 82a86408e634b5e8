package io.siteflow.rules.verdict;

/** Verdict or report JSON that could not be read; the message says what and where. */
public final class VerdictFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    public VerdictFormatException(String message) {
        super(message);
    }
}
