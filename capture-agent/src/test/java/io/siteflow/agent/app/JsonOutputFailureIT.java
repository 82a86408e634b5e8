package io.siteflow.agent.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.synth.Endpoint;
import io.siteflow.synth.Frames;
import io.siteflow.synth.PcapWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JSON output that fails stops the capture and the agent exits 1 with the cause, instead of counting every later
 * packet as dropped until it is killed: a full disk (a real 64 KiB tmpfs, mounted by the test as root) and a closed
 * standard output (the agent as a child process whose stdout pipe the test closes). Both replay a capture in a loop
 * ({@code --realtime --loop}), a source that never ends unless stopped, so the old agent never returned; each run is
 * bounded by {@link #GUARD_SECONDS} only so that such a failure shows as a failed test, not a hung build.
 */
class JsonOutputFailureIT {
    private static final long GUARD_SECONDS = 60;
    private static final long T0 = 1_764_000_000_000_000_000L;

    @TempDir
    Path dir;

    /** 2,000 UDP flows in 20 ms: with --max-flows 16 almost every one is evicted, its record written at once. */
    private Path manyFlows() throws IOException {
        Path file = dir.resolve("many-flows.pcap");
        try (PcapWriter w = PcapWriter.create(file, PcapWriter.Resolution.NANOS, 65535)) {
            for (int i = 0; i < 2000; i++) {
                w.write(T0 + i * 10_000L, Frames.udp(Endpoint.of("10.2." + (i / 200) + "." + (1 + i % 200), 40_000),
                        Endpoint.of("10.1.0.10", 1521), i, new byte[40], 0, 40));
            }
        }
        return file;
    }

    private static int sh(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().transferTo(System.err);
        return p.waitFor();
    }

    @Test
    void aFullDiskStopsTheCaptureAndExitsOneNamingTheFile() throws Exception {
        Path capture = manyFlows();
        Path mnt = Files.createDirectory(dir.resolve("small-disk"));
        assertThat(sh("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt.toString())).as("mount tmpfs (root)")
                .isZero();
        try {
            Path json = mnt.resolve("flows.jsonl");
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> {
                var cl = AgentMain.commandLine(new CaptureCommand());
                cl.setOut(new PrintWriter(out, true));
                cl.setErr(new PrintWriter(err, true));
                return cl.execute("-r", capture.toString(), "--realtime", "--loop", "--max-flows", "16", "--agent", "a",
                        "--json=" + json);
            });

            int code = run.get(GUARD_SECONDS, TimeUnit.SECONDS);

            assertThat(code).as(err.toString()).isEqualTo(1);
            assertThat(err.toString()).isEqualTo("siteflow capture: flows: publish: json: " + json
                    + ": No space left on device\n");
            assertThat(out.toString()).isEmpty();
            assertThat(Files.size(json)).isPositive();
        } finally {
            // lazy: a capture that failed this test may still hold the file open
            assertThat(sh("umount", "--lazy", mnt.toString())).as("umount").isZero();
        }
    }

    @Test
    void aClosedStandardOutputStopsTheCaptureAndExitsOne() throws Exception {
        Path capture = manyFlows();
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), AgentMain.class.getName(), "-r", capture.toString(),
                "--realtime", "--loop", "--max-flows", "16", "--agent", "a", "--json");
        Process agent = new ProcessBuilder(cmd).start();
        try {
            agent.getInputStream().close(); // the reader of the agent's standard output goes away
            CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> readAll(agent.getErrorStream()));

            boolean ended = agent.waitFor(GUARD_SECONDS, TimeUnit.SECONDS);

            assertThat(ended).as("the agent ended by itself").isTrue();
            String err = stderr.get(GUARD_SECONDS, TimeUnit.SECONDS);
            assertThat(agent.exitValue()).as(err).isEqualTo(1);
            assertThat(err.lines()).contains("siteflow capture: flows: publish: json: standard output: Broken pipe");
        } finally {
            agent.destroyForcibly();
        }
    }

    private static String readAll(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
