package io.siteflow.cli;

import io.siteflow.agent.app.AgentRunner;
import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.model.cli.ExitCodes;
import io.siteflow.processor.app.ProcessCommand;
import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.kafka.StopSignals;
import io.siteflow.synth.CapturePoint;
import io.siteflow.synth.StretchedClusterScenario;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code siteflow demo}: an embedded Kafka broker, the stream processor with its dashboard, and an agent
 * replaying a synthesised stretched FMW cluster (two regions 6.5 ms apart; wls3 passes the 90% rule, wls4
 * fails it) in real time, looping. Everything on loopback; Ctrl-C stops it all.
 */
@Command(name = "demo", separator = " ", mixinStandardHelpOptions = true, sortOptions = false,
        header = "Everything on one machine: Kafka, processor, dashboard and an agent replaying a sample.",
        description = {"Starts an embedded Kafka broker (KRaft), the stream processor with the dashboard and an "
            + "agent replaying a stretched Oracle FMW cluster (region1 with the database, region2 with wls3 at "
            + "93%% DB share and wls4 at 80%%; the database takes 3 ms per call, so the remote servers' DB calls "
            + "cost 6.5 ms + 3 ms and the local wls1's 0.3 ms + 3 ms) in real time. Prints the dashboard's URL; "
            + "Ctrl-C stops everything.",
            ""})
public final class DemoCommand implements Callable<Integer> {
    /** The demo's site model (deploy/conf/sites.yaml), a classpath resource. */
    public static final String SAMPLE_SITES = "/io/siteflow/cli/sites.yaml";

    @Spec
    CommandSpec spec;

    @Option(names = "--http-port", paramLabel = "PORT", defaultValue = "0",
            description = "Dashboard port (default: a free one).")
    int httpPort;

    @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = ".siteflow/demo",
            description = "Broker data, processor state and the sample capture. Default: ${DEFAULT-VALUE}.")
    Path dataDir;

    @Option(names = "--capture-seconds", paramLabel = "N", defaultValue = "120",
            description = "Length of the sample capture, replayed in a loop. Default: ${DEFAULT-VALUE}.")
    int captureSeconds;

    private final CountDownLatch stop = new CountDownLatch(1);

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Files.createDirectories(dataDir);
        Path sites = dataDir.resolve("sites.yaml");
        try (InputStream in = DemoCommand.class.getResourceAsStream(SAMPLE_SITES)) {
            Files.copy(in, sites, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        // the sample capture is written while Kafka and the processor start, so that the dashboard is up sooner
        CompletableFuture<Path> capture = CompletableFuture.supplyAsync(() -> sampleCapture(err));
        int port = httpPort != 0 ? httpPort : freePort();
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dataDir.resolve("kafka")).build()) {
            err.println("siteflow demo: starting Kafka in " + dataDir.resolve("kafka"));
            err.flush();
            broker.start();
            ProcessCommand processor = new ProcessCommand();
            StringWriter processorOut = new StringWriter();
            Thread processing = start("siteflow-demo-processor", () -> ProcessCommand.commandLine(processor)
                    .setOut(new PrintWriter(processorOut, true)).setErr(err)
                    .execute("--bootstrap", broker.bootstrap(), "--sites", sites.toString(), "--http-port",
                            Integer.toString(port), "--state-dir", dataDir.resolve("streams").toString(),
                            "--application-id", "siteflow-demo"));
            if (!awaitProcessor(processor, processing)) {
                err.println("siteflow demo: the processor did not start");
                return ExitCodes.FAILURE;
            }
            StopSignals.onStop(stop::countDown);
            out.println("siteflow demo: dashboard at http://127.0.0.1:" + port + "/  (Kafka at " + broker.bootstrap()
                    + "; Ctrl-C stops)");
            out.flush();
            AgentRunner agent = new AgentRunner(agentOptions(capture.join(), broker.bootstrap()),
                    new PrintWriter(new StringWriter(), true), err);
            Thread capturing = start("siteflow-demo-agent", agent::run);
            stop.await();
            err.println("siteflow demo: stopping");
            err.flush();
            agent.stop();
            capturing.join(TimeUnit.SECONDS.toMillis(30));
            processor.stop();
            processing.join(TimeUnit.SECONDS.toMillis(60));
        }
        return ExitCodes.OK;
    }

    /** Asks a running demo to stop, as Ctrl-C does. */
    public void stop() {
        stop.countDown();
    }

    private Path sampleCapture(PrintWriter err) {
        try {
            return writeSampleCapture(err);
        } catch (IOException e) {
            throw new UncheckedIOException("sample capture: " + e.getMessage(), e);
        }
    }

    private Path writeSampleCapture(PrintWriter err) throws IOException {
        Path capture = dataDir.resolve("stretched-cluster-db-" + captureSeconds + "s.pcap");
        if (!Files.exists(capture)) {
            err.println("siteflow demo: writing the sample capture " + capture);
            err.flush();
            Path partial = dataDir.resolve(capture.getFileName() + ".partial");
            sampleScenario(Duration.ofSeconds(captureSeconds))
                    .write(partial)
                    .writeJson(dataDir.resolve(capture.getFileName() + ".truth.json"));
            Files.move(partial, capture);
        }
        return capture;
    }

    /**
     * The sample: the stretched cluster seen at region 2's edge (75 µs from its hosts) and on wls1's own
     * interface (wls1's conversations within region 1), each conversation once, in one file, with the database
     * taking {@link #DB_SERVICE} per SQL round trip. So the remote servers' DB calls cost the 6.5 ms RTT (less the
     * edge's 150 µs) + 3 ms and the local wls1's the 0.3 ms RTT + 3 ms: the audit's and {@code /api/dbsites}'s site
     * comparison shows both, and the dashboard's "moved to region1" bar takes wls1's service time. One agent,
     * {@code region2-edge}, replays the file; wls1 is not an audited server (its site holds the database).
     */
    public static StretchedClusterScenario sampleScenario(Duration length) {
        return StretchedClusterScenario.builder().duration(length)
                .capturePoint(CapturePoint.regionEdgeAndHost("region2", EDGE_DELAY_NANOS, "wls1"))
                .dbServiceTime(DB_SERVICE).build();
    }

    /** The sample database's time per SQL round trip. */
    static final Duration DB_SERVICE = Duration.ofMillis(3);
    /** One way from the region-2 hosts to the sample's edge capture point. */
    static final long EDGE_DELAY_NANOS = 75_000;

    /** No {@code -F}: the sample holds wls1's traffic within region 1 too (records keyed by the agent id). */
    private static CaptureOptions agentOptions(Path capture, String bootstrap) {
        return CaptureOptions.builder().file(capture).agent("region2-edge")
                .bootstrap(bootstrap).spoolDir(capture.resolveSibling("spool")).spoolMaxMb(256).realtime(true)
                .loop(true).build();
    }

    private boolean awaitProcessor(ProcessCommand processor, Thread processing) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && processing.isAlive()) {
            if (processor.runtime().isPresent()) {
                return true;
            }
            Thread.sleep(100);
        }
        return processor.runtime().isPresent();
    }

    private static Thread start(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.start();
        return t;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
