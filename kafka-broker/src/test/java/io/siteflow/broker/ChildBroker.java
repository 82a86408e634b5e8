package io.siteflow.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code siteflow broker} as one node of a cluster, in a child JVM ({@code java -cp <test class path>
 * BrokerCommand ...}), output to a log file. {@link #kill()} is SIGKILL to this PID, {@link #stop()} and
 * {@link #close()} SIGTERM, then SIGKILL after 60 s. The child is forked by the calling thread, so it runs in that
 * thread's network namespace (the cli cluster tests start nodes inside a namespace of their own).
 */
public final class ChildBroker implements AutoCloseable {
    private final Process process;
    private final Path log;
    private final List<String> command;

    private ChildBroker(Process process, Path log, List<String> command) {
        this.process = process;
        this.log = log;
        this.command = command;
    }

    /** Starts {@code siteflow broker} with {@code args}, its output appended to {@code log}. */
    public static ChildBroker start(Path log, List<String> args) throws IOException {
        return start(log, List.of(), args);
    }

    /** As {@link #start(Path, List)}, with more JVM options (e.g. {@code -Dlogback.configurationFile=...}). */
    public static ChildBroker start(Path log, List<String> jvmOptions, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:+UseSerialGC"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), BrokerCommand.class.getName()));
        cmd.addAll(args);
        return launch(log, cmd);
    }

    private static ChildBroker launch(Path log, List<String> cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        // never outlive the test JVM, whatever path a failing test takes (this PID only)
        Runtime.getRuntime().addShutdownHook(new Thread(p::destroyForcibly, "stop-child-broker-" + p.pid()));
        return new ChildBroker(p, log, cmd);
    }

    /** The same command again, on the same data directory (after {@link #kill()}). */
    public ChildBroker restart() throws IOException {
        return launch(log, command);
    }

    /** How many times a node on this log printed its client address (it prints it each time it is up). */
    public long starts(String advertised) {
        return lines().stream().filter(advertised::equals).count();
    }

    public boolean alive() {
        return process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    /** SIGKILL: no controlled shutdown, no flush. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** The last lines of the child's output, for failure messages. */
    public String tail() {
        List<String> lines = lines();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    }

    private List<String> lines() {
        try {
            return Files.readAllLines(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return List.of();
        }
    }

    /** SIGTERM (a controlled shutdown), waits for the exit (SIGKILL after 60 s) and returns the exit code. */
    public int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            stop();
        }
    }
}
