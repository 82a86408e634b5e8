package io.siteflow.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs short system commands (ip, ethtool, sysctl) and returns their output. Thread-safe. */
public final class Shell {
    private Shell() {
    }

    /**
     * Runs {@code command}, waits up to 60 s and returns its standard output and error.
     *
     * @throws IOException when it cannot start, times out or exits non-zero (message: the command, exit code, output)
     */
    public static String run(String... command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + ": timed out");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException(String.join(" ", command) + ": interrupted", e);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + ": exit " + p.exitValue() + ": " + out.strip());
        }
        return out;
    }

    /** Runs {@code command} inside namespace {@code ns} ({@code ip netns exec}). */
    public static String inNs(String ns, String... command) throws IOException {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", ns));
        full.addAll(List.of(command));
        return run(full.toArray(String[]::new));
    }
}
