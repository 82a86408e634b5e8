package io.siteflow.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * tcpdump writing a pcap file inside a namespace: snaplen 256, 64 MiB buffer, packet-buffered output in
 * immediate mode, root kept ({@code -Z root}). Started by {@link #start} (returns once tcpdump listens),
 * ended by {@link #stop} (SIGTERM; returns the kernel drops tcpdump reported). Not thread-safe.
 */
public final class LabRecorder {
    private static final Pattern DROPPED = Pattern.compile("(\\d+) packets? dropped by kernel");

    private final Process process;
    private final Path log;

    private LabRecorder(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts tcpdump on {@code iface} in {@code ns} writing {@code file}; its messages go to {@code file.log}. */
    public static LabRecorder start(String ns, String iface, Path file) throws IOException, InterruptedException {
        Path log = file.resolveSibling(file.getFileName() + ".log");
        Process p = new ProcessBuilder(List.of("ip", "netns", "exec", ns, "tcpdump", "-i", iface, "-n", "-s", "256",
                "-B", "65536", "-U", "--immediate-mode", "-Z", "root", "-w", file.toAbsolutePath().toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        LabRecorder r = new LabRecorder(p, log);
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!Files.readString(log).contains("listening on")) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new IOException("tcpdump did not start: " + Files.readString(log).strip());
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        return r;
    }

    /** Stops tcpdump and returns the packets it reported dropped by the kernel. */
    public long stop() throws IOException, InterruptedException {
        return stop(process, log);
    }

    /**
     * Stops a tcpdump process (SIGTERM, then a kill after 20 s) and returns the packets it reported dropped by the
     * kernel in {@code log}, where its standard error went.
     *
     * @throws IOException when it did not stop or did not report its drops
     */
    public static long stop(Process process, Path log) throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("tcpdump did not stop");
        }
        String text = Files.readString(log);
        Matcher m = DROPPED.matcher(text);
        if (!m.find()) {
            throw new IOException("tcpdump did not report drops: " + text.strip());
        }
        return Long.parseLong(m.group(1));
    }
}
