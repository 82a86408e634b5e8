package io.siteflow.agent.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.siteflow.agent.app.CollectMain;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The processes the exporter ITs run, each stopped by its PID: {@code siteflow collect} as a child JVM, and
 * {@code pmacctd} exporting a capture file.
 */
final class ExportProcesses {
    /** The longest any step of an export IT may take. */
    static final Duration GUARD = Duration.ofSeconds(120);

    private ExportProcesses() {
    }

    /**
     * Runs {@code pmacctd -f conf} (its output to {@code log}) until it has read its capture file. At the end of the
     * file pmacctd's core asks the plugin to stop; when the plugin has gone before the core looks, the core logs the
     * lost connection and exits 1 (seen once in 14 runs): the plugin had sent everything (the ITs' tees count it), so
     * that exit is taken; any other failure is not.
     */
    static void runPmacctd(Path conf, Path log) throws Exception {
        Process p = new ProcessBuilder("pmacctd", "-f", conf.toString()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        try {
            assertThat(p.waitFor(GUARD.toSeconds(), TimeUnit.SECONDS)).as("pmacctd ended at the end of the file")
                    .isTrue();
            String out = Files.readString(log);
            boolean pluginWentFirst = p.exitValue() == 1 && out.contains("Shutting down on user request.")
                    && out.contains("no more plugins active. Shutting down.") && !out.contains("ERROR");
            assertThat(p.exitValue() == 0 || pluginWentFirst).as(out).isTrue();
        } finally {
            p.destroyForcibly();
        }
    }

    /** The flow records of a JSON lines file. */
    static List<FlowRecord> records(Path json) throws Exception {
        List<FlowRecord> out = new ArrayList<>();
        for (String line : Files.readAllLines(json)) {
            out.add(FlowRecordJson.parse(line));
        }
        return out;
    }

    /** SIGTERM to {@code p} by its PID ({@link Process#destroy} would also close the pipes the test still reads). */
    static void terminate(Process p) throws Exception {
        Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(p.pid())).inheritIO().start();
        assertThat(kill.waitFor(GUARD.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }

    /** {@code siteflow collect} in a child JVM, its standard error read as it comes. */
    static final class Collector implements AutoCloseable {
        private final Process process;
        private final Pattern listening;
        private final StringBuffer err = new StringBuffer();
        private final CompletableFuture<String> ended;

        private Collector(Process process, Pattern listening) {
            this.process = process;
            this.listening = listening;
            this.ended = CompletableFuture.supplyAsync(this::readAll);
        }

        /**
         * Starts {@code siteflow collect args...}; {@code listening} finds the port in its start-up line (group 1).
         */
        static Collector start(Pattern listening, String... args) throws IOException {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-Xmx256m", "-cp", System.getProperty("java.class.path"), CollectMain.class.getName()));
            command.addAll(List.of(args));
            return new Collector(new ProcessBuilder(command).start(), listening);
        }

        /** The port the collector said it listens on, once it said so. */
        int awaitPort() {
            return await().atMost(GUARD).until(this::listeningPort, p -> p > 0);
        }

        /** SIGTERM, then its whole standard error once it exited 0 (it flushes every held conversation first). */
        String stop() throws Exception {
            terminate(process);
            assertThat(process.waitFor(GUARD.toSeconds(), TimeUnit.SECONDS)).isTrue();
            String all = ended.get(GUARD.toSeconds(), TimeUnit.SECONDS);
            assertThat(process.exitValue()).as(all).isZero();
            return all;
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }

        private String readAll() {
            try (var in = new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)) {
                char[] buf = new char[4096];
                int n;
                while ((n = in.read(buf)) >= 0) {
                    err.append(buf, 0, n);
                }
                return err.toString();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The port of the start-up line, 0 while it has not come. */
        private int listeningPort() {
            Matcher m = listening.matcher(err.toString());
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            if (ended.isDone()) {
                throw new AssertionError("siteflow collect ended before it listened: " + ended.join());
            }
            return 0;
        }
    }
}
