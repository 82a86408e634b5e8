package io.siteflow.systemtest.image;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs podman and podman-compose as {@code ./siteflow image} does: with {@code CONTAINERS_CONF} pointing at
 * deploy/image/containers.conf (the runc runtime, explicit ulimits), nothing under /etc changed. netavark turns IP
 * forwarding on when it sets up a network; {@link #restoreIpForward()} puts back what the host had when this class
 * was loaded.
 */
final class Podman {
    private static final Path IP_FORWARD = Path.of("/proc/sys/net/ipv4/ip_forward");
    private static final String FORWARD_BEFORE = read(IP_FORWARD);

    /** What a command printed and how it ended. */
    record Result(int exit, String out, String err) {
        Result orThrow(List<String> command) {
            if (exit != 0) {
                throw new IllegalStateException(String.join(" ", command) + ": exit " + exit + "\n" + err + out);
            }
            return this;
        }
    }

    private Podman() {
    }

    /** The repository's root (the launcher, deploy/). */
    static Path root() {
        return Path.of(System.getProperty("siteflow.root", "../..")).toAbsolutePath().normalize();
    }

    /** The environment every podman command here gets. */
    static Map<String, String> environment() {
        return Map.of("CONTAINERS_CONF", root().resolve("deploy/image/containers.conf").toString());
    }

    /** {@code podman ARGS...}, which must exit 0. */
    static Result podman(String... args) {
        List<String> cmd = new ArrayList<>(List.of("podman"));
        cmd.addAll(List.of(args));
        return run(cmd, Path.of("."), Map.of(), 300).orThrow(cmd);
    }

    /** {@code podman ARGS...}, whatever its exit. */
    static Result podmanMayFail(String... args) {
        List<String> cmd = new ArrayList<>(List.of("podman"));
        cmd.addAll(List.of(args));
        return run(cmd, Path.of("."), Map.of(), 300);
    }

    /** {@code command} in {@code dir} with {@link #environment()} and {@code env}, at most {@code seconds}. */
    static Result run(List<String> command, Path dir, Map<String, String> env, long seconds) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
            pb.environment().putAll(environment());
            pb.environment().putAll(env);
            Path out = Files.createTempFile("podman", ".out");
            Path err = Files.createTempFile("podman", ".err");
            try {
                Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
                if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                    throw new IllegalStateException(String.join(" ", command) + ": still running after " + seconds
                            + " s\n" + Files.readString(err));
                }
                return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new IllegalStateException(String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(String.join(" ", command) + ": interrupted", e);
        }
    }

    /** Puts {@code net.ipv4.ip_forward} back to its value when the tests started, if netavark changed it. */
    static void restoreIpForward() {
        if (FORWARD_BEFORE.isEmpty() || FORWARD_BEFORE.equals(read(IP_FORWARD))) {
            return;
        }
        try {
            Files.writeString(IP_FORWARD, FORWARD_BEFORE + "\n", StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new IllegalStateException("restore " + IP_FORWARD + " to " + FORWARD_BEFORE + ": " + e, e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.US_ASCII).strip();
        } catch (IOException e) {
            return "";
        }
    }
}
