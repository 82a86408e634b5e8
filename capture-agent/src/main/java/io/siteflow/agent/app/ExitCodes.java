package io.siteflow.agent.app;

/** Exit codes of every siteflow command (DESIGN.md "Command line"). */
public final class ExitCodes {
    /** Done. */
    public static final int OK = 0;
    /** Input that could not be read whole: missing, unsupported, corrupt or cut-short file. */
    public static final int INPUT = 2;
    /** A run-time failure that is not the input's fault (interface gone, permission). */
    public static final int FAILURE = 1;
    /** Wrong usage: unknown option, bad value. */
    public static final int USAGE = 64;

    private ExitCodes() {
    }
}
