package io.siteflow.agent.app;

import io.siteflow.agent.capture.CaptureException;
import io.siteflow.agent.capture.CaptureFailure;
import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.agent.export.ExportSource;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.RemoteSiteFilter;
import io.siteflow.agent.metrics.AgentMetrics;
import io.siteflow.agent.pipeline.Pipeline;
import io.siteflow.agent.publish.kafka.KafkaFlowSink;
import io.siteflow.agent.report.TextReport;
import io.siteflow.agent.source.FlowSource;
import io.siteflow.model.cli.ExitCodes;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one capture: opens the source ({@link FlowSource}, chosen in {@code Sources}), gives its records to the sinks,
 * stops on end of file, {@code -s} seconds or SIGINT/SIGTERM, then flushes every flow, prints the report and the
 * summary. A source that fails (a worker whose sink failed included) ends the run with exit code 1 and the cause.
 * Nothing is lost on a clean stop: the shutdown hook waits until the flows are flushed. With Kafka, the sink is
 * closed before its counters are printed, and a run that ends with records lost (dropped or refused) or still in
 * the spool exits 1 and says how many, why the broker could not be used, and where the spool is; so does a run whose
 * source lost what it received ({@link FlowSource#losses()}: a collector's full receive pool).
 */
public final class AgentRunner {
    private static final Logger LOG = LoggerFactory.getLogger(AgentRunner.class);

    private final CaptureOptions options;
    private final PrintWriter out;
    private final PrintWriter err;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean signalled;
    private volatile FlowSource running;
    private volatile int exitCode;
    /** The backend chosen at {@link #run()} ({@code --backend auto}: ebpf or pcap, and why). */
    private Sources.BackendChoice choice = new Sources.BackendChoice(io.siteflow.agent.config.Backend.PCAP, "");

    public AgentRunner(CaptureOptions options, PrintWriter out, PrintWriter err) {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    /** Runs to completion and returns the exit code. */
    public int run() {
        LOG.info("capture: {}", options.describe());
        RemoteSiteFilter filter = new RemoteSiteFilter(options.remoteCidrs());
        String runId = options.timely() ? AgentIds.forLive(options.agent()) : AgentIds.forFile(options.agent(), options.file());
        TextReport report = options.text()
                ? new TextReport(filter, options.ports(), options.order(), options.bytes()) : null;
        FlowTableConfig cfg = new FlowTableConfig(options.maxFlows(), options.activeTimeout(),
                options.idleTimeout(), FlowTableConfig.DEFAULTS.closeLinger());
        FlowSource source;
        try {
            choice = Sources.choose(options);
            source = Sources.open(options, new Pipeline.Settings(options.agent(), runId, cfg, filter, report,
                    options.sni()), choice);
        } catch (CaptureFileException e) {
            err.println(command() + ": " + e.getMessage());
            return ExitCodes.INPUT;
        } catch (CaptureFailure e) {
            err.println(command() + ": " + e.getMessage());
            return ExitCodes.FAILURE;
        }
        return run(source, report);
    }

    /**
     * Runs {@code source} (opened for these options; closed here) to completion into the sinks the options ask for,
     * printing {@code report} (or null) at the end; returns the exit code. The seam's one user:
     * every kind of source runs through here.
     */
    int run(FlowSource source, TextReport report) {
        if (options.live()) {
            err.println("capturing on " + options.iface() + Sources.startNote(options, source, choice));
            err.flush();
        } else if (options.collecting()) {
            err.println("collecting on udp " + source.name()
                    + (source instanceof ExportSource e ? e.startNote() : ""));
            err.flush();
        }
        running = source;
        Thread hook = new Thread(() -> onSignal(source), "siteflow-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        int code = runWith(source, report);
        if (signalled) {
            exitCode = code;
            finished.countDown();
            parkForever();
        }
        Runtime.getRuntime().removeShutdownHook(hook);
        return code;
    }

    /** Asks a running capture to stop as SIGTERM would (flush, report, exit code 0); safe from any thread. */
    public void stop() {
        FlowSource s = running;
        if (s != null) {
            s.stop();
        }
    }

    /** Packets the source delivered so far (0 before it opened); safe from any thread. */
    public long received() {
        FlowSource s = running;
        return s == null ? 0 : s.stats().received();
    }

    /** Live packets the agent dropped because aggregation fell behind the capture (0 for files). */
    public long agentDrops() {
        FlowSource s = running;
        return s == null ? 0 : s.readings().agentDrops();
    }

    private int runWith(FlowSource source, TextReport report) {
        long started = ReportClock.nowNanos();
        long stopAt = options.timely() && options.seconds() != null
                ? ReportClock.stopAt(started, options.seconds()) : Long.MAX_VALUE;
        if (report != null && options.live()) {
            report.begin(started);
            report.endAt(stopAt);
        }
        List<String> problems;
        KafkaFlowSink kafka;
        try (Sinks sinks = Sinks.open(options, out)) {
            kafka = sinks.kafka();
            try (AgentMetrics metrics = AgentMetrics.start(options.metricsPort(), options.metricsBind(),
                    source.readings(), source);
                    AutoCloseable heartbeats = Heartbeats.start(sinks.kafka(), options, source, source.readings(),
                            metrics)) {
                source.registerMeters(metrics.registry());
                capture(source, sinks.all(), stopAt);
            }
            if (report != null) {
                long now = options.live() ? Math.min(stopAt, ReportClock.nowNanos()) : report.lastPacketNanos();
                report.print(out, source.name(), options.lines(), now);
            }
            Summary.print(err, source, source.readings(), source.summary());
            problems = source.problems();
        } catch (Exception e) {
            err.println(command() + ": " + e.getMessage());
            LOG.debug("capture failed", e);
            return ExitCodes.FAILURE;
        } finally {
            source.close();
        }
        boolean lost = kafka != null && Summary.printKafka(err, kafka, command()); // after close: every record sent or spooled
        lost |= Summary.printLosses(err, source.losses(), command());
        problems.forEach(err::println);
        err.flush();
        return lost ? ExitCodes.FAILURE : problems.isEmpty() ? ExitCodes.OK : ExitCodes.INPUT;
    }

    private void capture(FlowSource source, FlowSink sink, long stopAt) {
        Thread timer = null;
        if (stopAt != Long.MAX_VALUE) {
            timer = new Thread(() -> {
                try {
                    Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(stopAt - ReportClock.nowNanos())));
                    source.stop();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "siteflow-duration");
            timer.setDaemon(true);
            timer.start();
        }
        try {
            source.run(sink);
        } catch (CaptureException e) {
            throw new IllegalStateException(e.getMessage(), e);
        } finally {
            if (timer != null) {
                timer.interrupt();
            }
        }
    }

    private void onSignal(FlowSource source) {
        signalled = true;
        source.stop();
        try {
            if (finished.await(30, TimeUnit.SECONDS)) {
                out.flush();
                err.flush();
                Runtime.getRuntime().halt(exitCode);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The command the messages name: {@code siteflow collect} or {@code siteflow capture}. */
    private String command() {
        return options.collecting() ? "siteflow collect" : "siteflow capture";
    }

    private static void parkForever() {
        while (true) {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                // the shutdown hook halts the JVM
            }
        }
    }
}
