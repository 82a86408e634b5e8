package io.siteflow.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The {@link DelayBridge} of a lab in a JVM of its own inside the router namespace ({@code lab bridge}),
 * with a higher scheduling priority ({@code nice -n -10}) and a small serial-GC heap, so the pauses and
 * CPU hunger of the JVM that generates or analyses the traffic (clients, an agent, a broker) do not delay
 * frames. Started from this JVM's class path; its output goes to a log file. Not thread-safe.
 */
public final class BridgeProcess {
    private static final String STATS = "bridge-stats ";

    private final Process process;
    private final Path log;

    private BridgeProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts the bridge of {@code t} and returns once it bridges (at most 30 s). */
    public static BridgeProcess start(LabTopology t, long delayNanos, Path log) throws IOException,
            InterruptedException {
        Files.deleteIfExists(log);
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(List.of("ip", "netns", "exec", t.router(), "nice", "-n", "-10", java,
                "-Xmx96m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), LabMain.class.getName(),
                "bridge", "--prefix", t.prefix(), "--delay-nanos", String.valueOf(delayNanos)))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.readString(log).contains("bridging")) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new IOException("the lab's bridge did not start: " + Files.readString(log).strip());
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        return new BridgeProcess(p, log);
    }

    /** The process id (the JVM's: {@code ip netns exec} and {@code nice} exec it). */
    public long pid() {
        return process.pid();
    }

    /** Stops the bridge (SIGTERM) and returns its final counters. */
    public List<BridgeStats> stop() throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("the lab's bridge did not stop");
        }
        List<BridgeStats> stats = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            if (line.startsWith(STATS)) {
                String[] f = line.substring(STATS.length()).split(" ");
                stats.add(new BridgeStats(f[0], Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]),
                        Long.parseLong(f[4]), Long.parseLong(f[5]), Long.parseLong(f[6])));
            }
        }
        return stats;
    }

    /** The line {@code lab bridge} prints per direction when it stops: what {@link #stop()} reads back. */
    static String statsLine(BridgeStats s) {
        return STATS + s.name() + " " + s.forwarded() + " " + s.sendErrors() + " " + s.droppedKernel() + " "
                + s.maxLateNanos() + " " + s.meanLateNanos() + " " + s.lateOver1ms();
    }
}
