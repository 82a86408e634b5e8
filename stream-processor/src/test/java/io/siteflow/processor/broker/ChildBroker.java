package io.siteflow.processor.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code siteflow broker} as one node of a cluster, in a child JVM ({@code java -cp <test class path>
 * BrokerCommand ...}), output to a log file. {@link #kill()} is SIGKILL to this PID, {@link #close()} SIGTERM, then
 * SIGKILL after 60 s.
 */
final class ChildBroker implements AutoCloseable {
    private final Process process;
    private final Path log;
    private final List<String> command;

    private ChildBroker(Process process, Path log, List<String> command) {
        this.process = process;
        this.log = log;
        this.command = command;
    }

    /** Starts {@code siteflow broker} with {@code args}, its output appended to {@code log}. */
    static ChildBroker start(Path log, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                BrokerCommand.class.getName()));
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
    ChildBroker restart() throws IOException {
        return launch(log, command);
    }

    /** How many times a node on this log printed its client address (it prints it each time it is up). */
    long starts(String advertised) {
        return lines().stream().filter(advertised::equals).count();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** SIGKILL: no controlled shutdown, no flush. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** The last lines of the child's output, for failure messages. */
    String tail() {
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

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }
}
