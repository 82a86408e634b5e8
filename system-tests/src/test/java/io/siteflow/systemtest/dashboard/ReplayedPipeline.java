package io.siteflow.systemtest.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.siteflow.agent.app.AgentRunner;
import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.processor.app.ProcessCommand;
import io.siteflow.broker.EmbeddedKafkaBroker;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The real pipeline of the dashboard tests: an embedded broker, {@code siteflow process} serving HTTP on a free
 * loopback port, and an agent (its capture's remote CIDR 10.1.0.0/16, as the demo's region-2 edge agent) that has
 * replayed a capture into it. {@link #close()} stops the processor, then the broker.
 */
final class ReplayedPipeline implements AutoCloseable {
    private final ExecutorService pool = Executors.newFixedThreadPool(2);
    private final ProcessCommand processor = new ProcessCommand();
    private final EmbeddedKafkaBroker broker;
    private final int port;

    private ReplayedPipeline(Path dir) throws Exception {
        broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).build();
        port = freePort();
    }

    /** Starts broker and processor in {@code dir}, then replays {@code capture} as agent {@code agent}. */
    static ReplayedPipeline start(Path dir, Path sites, Path capture, String agent) throws Exception {
        return start(dir, sites, capture, agent, "10.1.0.0/16");
    }

    /**
     * As {@link #start(Path, Path, Path, String)} with the agent's {@code -F} CIDRs given: none replays the whole
     * capture, keyed by the agent id, as {@code siteflow demo}'s agent does.
     */
    static ReplayedPipeline start(Path dir, Path sites, Path capture, String agent, String... remoteCidrs)
            throws Exception {
        ReplayedPipeline p = new ReplayedPipeline(dir);
        try {
            p.run(dir, sites, capture, agent, remoteCidrs);
            return p;
        } catch (Exception | AssertionError e) {
            p.close();
            throw e;
        }
    }

    private void run(Path dir, Path sites, Path capture, String agent, String... remoteCidrs) throws Exception {
        broker.start();
        pool.submit(() -> ProcessCommand.commandLine(processor).setOut(new PrintWriter(new StringWriter(), true))
                .setErr(new PrintWriter(new StringWriter(), true))
                .execute("--bootstrap", broker.bootstrap(), "--sites", sites.toString(), "--http-port",
                        Integer.toString(port), "--state-dir", dir.resolve("streams").toString()));
        await("processor running").atMost(Duration.ofMinutes(2)).until(() -> processor.runtime().isPresent());
        StringWriter agentErr = new StringWriter();
        var builder = CaptureOptions.builder().file(capture).agent(agent).bootstrap(broker.bootstrap())
                .spoolDir(dir.resolve("spool")).spoolMaxMb(64);
        for (String cidr : remoteCidrs) {
            builder.remoteCidr(cidr);
        }
        CaptureOptions options = builder.build();
        AgentRunner runner = new AgentRunner(options, new PrintWriter(new StringWriter(), true),
                new PrintWriter(agentErr, true));
        assertThat(pool.submit(runner::run).get(2, TimeUnit.MINUTES)).as(agentErr.toString()).isZero();
    }

    /** The dashboard's URL, {@code http://127.0.0.1:PORT/}. */
    String base() {
        return "http://127.0.0.1:" + port + "/";
    }

    @Override
    public void close() throws Exception {
        try {
            processor.stop();
            pool.shutdown();
            pool.awaitTermination(60, TimeUnit.SECONDS);
        } finally {
            broker.close();
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
