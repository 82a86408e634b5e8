package io.siteflow.cli.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A {@code siteflow collect} child JVM of the cli ITs: its stderr, the port it listens on, SIGTERM by PID. */
public final class CollectChild {
    private static final Duration GUARD = Duration.ofSeconds(120);
    private static final Pattern LISTENING = Pattern.compile("collecting on udp 127\\.0\\.0\\.1:(\\d+)");

    private CollectChild() {
    }

    /** Sends SIGTERM to {@code p} by its PID. */
    public static void terminate(Process p) throws Exception {
        Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).inheritIO().start();
        assertThat(kill.waitFor(GUARD.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }

    /** Appends {@code p}'s stderr to {@code sb} until it closes. */
    public static void readAll(Process p, StringBuffer sb) {
        try (var in = new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8)) {
            char[] buf = new char[4096];
            int n;
            while ((n = in.read(buf)) >= 0) {
                sb.append(buf, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The port of the start-up line in {@code err}, 0 while it has not come.
     *
     * @throws AssertionError when the child's stderr closed before the line
     */
    public static int listeningPort(StringBuffer err, CompletableFuture<Void> reader) {
        Matcher m = LISTENING.matcher(err);
        if (m.find()) {
            return Integer.parseInt(m.group(1));
        }
        if (reader.isDone()) {
            throw new AssertionError("siteflow collect ended before it listened: " + err);
        }
        return 0;
    }
}
