package io.siteflow.systemtest.pipeline;

import io.siteflow.cli.SiteflowCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code siteflow process} in a child JVM ({@code java -cp <test class path> io.siteflow.cli.SiteflowCommand
 * process ...}) with its own state directory, output to a log file. {@link #kill()} is SIGKILL,
 * {@link #close()} SIGTERM (a clean stop), then SIGKILL after 60 s.
 */
final class ChildProcessor implements AutoCloseable {
    private final Process process;
    private final Path log;

    private ChildProcessor(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static ChildProcessor start(String bootstrap, Path sites, Path stateDir, String appId, Path log)
            throws IOException {
        return start(bootstrap, sites, stateDir, appId, log, 0);
    }

    /** Serving HTTP on 127.0.0.1:{@code httpPort} (0: no HTTP), with {@code more} options. */
    static ChildProcessor start(String bootstrap, Path sites, Path stateDir, String appId, Path log, int httpPort,
                                String... more) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", System.getProperty("java.class.path"), SiteflowCommand.class.getName(), "process",
                "--bootstrap", bootstrap, "--sites", sites.toString(), "--http-port", String.valueOf(httpPort),
                "--state-dir", stateDir.toString(), "--application-id", appId, "--kafka", "commit.interval.ms=100"));
        cmd.addAll(List.of(more));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        // never outlive the test JVM, whatever path a failing test takes (this PID only)
        Runtime.getRuntime().addShutdownHook(new Thread(p::destroyForcibly, "stop-child-processor-" + p.pid()));
        return new ChildProcessor(p, log);
    }

    /** A fresh log file for a test's children under {@code target/it-logs} (kept after the run). */
    static Path logFile(String test) throws IOException {
        Path d = Files.createDirectories(Path.of("target", "it-logs"));
        Path log = d.resolve(test + ".log");
        Files.deleteIfExists(log);
        return log;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** SIGKILL: no shutdown hook, no commit, no clean close of anything. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM and the exit code. */
    int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
        return process.exitValue();
    }

    /** Every line of the child's output so far. */
    List<String> lines() {
        try {
            return Files.readAllLines(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(log + ": " + e.getMessage(), e);
        }
    }

    /** The last lines of the child's output, for failure messages. */
    String tail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            stop();
        }
    }
}
