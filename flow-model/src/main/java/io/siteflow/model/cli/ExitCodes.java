package io.siteflow.model.cli;

/**
 * Exit codes of every siteflow command (DESIGN.md, "Command line"): a contract with scripts and service managers,
 * shared by the agent, the processor, the broker and the {@code siteflow} launcher's commands. Constants only.
 */
public final class ExitCodes {
    /** Done. */
    public static final int OK = 0;
    /** A run-time failure that is not the input's fault (interface gone, permission, Kafka unreachable). */
    public static final int FAILURE = 1;
    /** Input that could not be read whole: missing, unsupported, corrupt or cut-short file. */
    public static final int INPUT = 2;
    /** {@code siteflow isolation check}: the input was read whole and something violates the isolation policy. */
    public static final int VIOLATIONS = 3;
    /** Wrong usage: unknown option, bad value. */
    public static final int USAGE = 64;

    private ExitCodes() {
    }
}
