package io.siteflow.agent.app;

import io.siteflow.agent.config.CaptureOptionsBuilder;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where the records of {@code capture} and {@code collect} go besides Kafka: the spool that holds them while Kafka
 * cannot take them, and JSON lines. One picocli mixin, so both commands say and check the same.
 */
public final class RecordOutputOptions {

    @Option(names = "--spool-dir", paramLabel = "DIR",
            description = "Where records wait while Kafka is unreachable or refuses them for a missing ACL "
                    + "(default: ~/.local/state/siteflow/spool/AGENT).")
    Path spoolDir;

    @Option(names = "--spool-max-mb", paramLabel = "MB", defaultValue = "" + CaptureOptionsBuilder.DEFAULT_SPOOL_MAX_MB,
            description = "Spool limit; beyond it the newest records are dropped and counted. Default: ${DEFAULT-VALUE}.")
    long spoolMaxMb;

    @Option(names = "--json", arity = "0..1", fallbackValue = "-", paramLabel = "FILE",
            preprocessor = AttachedValueOnly.class,
            description = "Write flow records as JSON lines to standard output, or to FILE (--json=FILE; the file "
                    + "only after '=', so that --json never takes the next argument).")
    String json;

    /** Sets the spool and JSON options on {@code b}; returns it. */
    CaptureOptionsBuilder applyTo(CaptureOptionsBuilder b) {
        return b.spoolDir(spoolDir).spoolMaxMb(spoolMaxMb).json(json);
    }
}
