package io.siteflow.processor.app;

import io.siteflow.kafka.KafkaOptions;
import io.siteflow.kafka.StopSignals;
import io.siteflow.kafka.topics.SiteflowTopics;
import io.siteflow.model.cli.ExitCodes;
import io.siteflow.processor.topology.TopologyConfig;
import io.siteflow.rules.load.LoadResult;
import io.siteflow.rules.load.SiteModelLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code siteflow process}: validates the site model, ensures the topics, publishes the model on
 * {@code siteflow.sites}, runs the Streams topology (and the HTTP frontend: {@code JavalinFrontend}, or the one
 * given; none with {@code new ProcessCommand(null)}) until SIGINT/SIGTERM or {@link #stop()}, then stops cleanly.
 *
 * <p>Exit codes ({@link ExitCodes}): 0 after a clean stop; 1 when Kafka cannot be reached, or Kafka Streams fails and
 * restarting it does not help ({@link RestartPolicy}); 2 when the
 * sites file cannot be read, is not UTF-8 (the message gives the byte offset), holds errors (each printed as
 * {@code file:line:col: ...}) or is too large to publish ({@link #MAX_MODEL_BYTES}); 64 for wrong usage.
 */
@Command(name = "process", mixinStandardHelpOptions = true,
        description = "Run the stream processor: classify flows, aggregate per audited pair, emit verdicts.")
public final class ProcessCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessCommand.class);
    /** Bytes of site model text one {@code siteflow.sites} record carries at most (1 MiB less 1 KiB of framing). */
    static final int MAX_MODEL_BYTES = 1_048_576 - 1_024;

    @Spec
    CommandLine.Model.CommandSpec spec;

    /** --bootstrap (required), --kafka-config, --kafka: client and Streams properties. */
    @Mixin
    KafkaOptions kafkaOptions;

    @Option(names = "--sites", required = true, paramLabel = "FILE", description = "site model (sites.yaml)")
    Path sites;

    @Option(names = "--http-port", paramLabel = "P", defaultValue = "8080",
            description = "HTTP port of the dashboard and API (default: ${DEFAULT-VALUE}; 0: no HTTP)")
    int httpPort;

    @Option(names = "--http-bind", paramLabel = "ADDR", description = "HTTP bind address (default: ${DEFAULT-VALUE})")
    String httpBind = "127.0.0.1";

    @Option(names = "--advertised-host", paramLabel = "H",
            description = "host other instances reach this one at (default: the bind address)")
    String advertisedHost;

    @Option(names = "--http-token", paramLabel = "T", description = "bearer token the HTTP API requires")
    String httpToken = "";

    @Option(names = "--http-insecure", description = "serve the API on an address other than loopback without "
            + "--http-token (refused otherwise: anyone who reaches the port reads the API)")
    boolean httpInsecure;

    @Option(names = "--http-allowed-host", paramLabel = "NAME", description = "a name clients may reach the HTTP "
            + "server by (Host header), besides the bind address, localhost and --advertised-host (repeatable); "
            + "other names are refused (421) against DNS rebinding")
    List<String> httpAllowedHosts = new ArrayList<>();

    @Option(names = "--partitions", paramLabel = "N", description = "partitions of the siteflow topics created "
            + "at start when missing (default: ${DEFAULT-VALUE}); existing topics are left as they are")
    int partitions = SiteflowTopics.SINGLE_NODE.partitions();

    @Option(names = "--replication-factor", paramLabel = "R", description = "replication factor of the siteflow "
            + "topics created at start and of the Streams internal topics (default: 3 on a cluster of three or more "
            + "brokers, with min.insync.replicas=2; else the broker count)")
    Integer replicationFactor;

    @Option(names = "--state-dir", paramLabel = "DIR", description = "Kafka Streams state directory (default: "
            + DAEMON_STATE_DIR + " when that directory exists and is writable, as the package and the systemd unit "
            + "make it; else ~/.local/state/siteflow/processor; here: ${DEFAULT-VALUE}). State another cluster or "
            + "since recreated topics built is discarded at start (docs/OPERATIONS.md, \"Local state\")")
    Path stateDir = defaultStateDir(Path.of(DAEMON_STATE_DIR), Path.of(System.getProperty("user.home")));

    @Option(names = "--application-id", paramLabel = "ID", description = "Streams application id (default: ${DEFAULT-VALUE})")
    String applicationId = TopologyConfig.DEFAULT_APPLICATION_ID;

    @Option(names = "--window", paramLabel = "DURATION", converter = DurationConverter.class,
            defaultValue = TopologyConfig.DEFAULT_WINDOW, description = "verdict window (default: ${DEFAULT-VALUE})")
    Duration window = TopologyConfig.DEFAULTS.window();

    @Option(names = "--grace", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "grace for late records (default: 10s)")
    Duration grace = TopologyConfig.DEFAULTS.grace();

    @Option(names = "--baseline", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "event time from the first record during which cross-site peers are learnt without a "
                    + "NEW_PEER alert (default: 1h; the Alerts view shows when it ends)")
    Duration baseline = TopologyConfig.DEFAULTS.baseline();

    @Option(names = "--alert-repeat", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "a FAIL or RTT alert is raised when its pair enters that state and again every DURATION "
                    + "while it stays there (default: 1h)")
    Duration alertRepeat = TopologyConfig.DEFAULTS.alertRepeat();

    /** The state directory of the installed processor (deploy/systemd, docs/OPERATIONS.md). */
    static final String DAEMON_STATE_DIR = "/var/lib/siteflow/processor";

    /**
     * {@code daemonDir} when it is a writable directory (an installed processor), else
     * {@code home/.local/state/siteflow/processor}: never a directory that depends on where the command was started.
     */
    static Path defaultStateDir(Path daemonDir, Path home) {
        return Files.isDirectory(daemonDir) && Files.isWritable(daemonDir) ? daemonDir
                : home.resolve(".local").resolve("state").resolve("siteflow").resolve("processor");
    }

    private final CountDownLatch stopped = new CountDownLatch(1);
    /** Applied to each topology the runtime builds (tests: a global store made to fail). */
    UnaryOperator<Topology> topologyHook = UnaryOperator.identity();
    /** Makes the HTTP frontend when the command runs (not when picocli builds the command tree: the frontend's
     *  instance client starts an HTTP client and its TLS context, half a second every other command would pay). */
    private final Supplier<HttpFrontend> given;
    private volatile ProcessorRuntime runtime;

    /** With the HTTP API and dashboard ({@link JavalinFrontend}). */
    public ProcessCommand() {
        this.given = JavalinFrontend::new;
    }

    /** With this HTTP frontend (null: none, the processor runs without HTTP). */
    public ProcessCommand(HttpFrontend frontend) {
        this.given = () -> frontend;
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        ProcessorSettings settings;
        String yaml;
        try {
            settings = settings();
            yaml = SiteModelLoader.read(sites);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        } catch (IOException e) {
            err.println("siteflow process: cannot read " + sites + ": " + e.getMessage());
            return ExitCodes.INPUT;
        }
        LoadResult model = SiteModelLoader.parse(sites.toString(), yaml);
        model.diagnostics().forEach(err::println);
        err.flush();
        if (!model.errors().isEmpty()) {
            return ExitCodes.INPUT;
        }
        int size = yaml.getBytes(StandardCharsets.UTF_8).length;
        if (size > MAX_MODEL_BYTES) {
            err.println("siteflow process: " + sites + " is " + size + " bytes; the site model travels as one record "
                    + "on siteflow.sites, and Kafka takes records of at most " + MAX_MODEL_BYTES + " bytes of text "
                    + "(the producer's max.request.size and the broker's message.max.bytes, 1 MiB, less room for the "
                    + "record's framing)");
            err.flush();
            return ExitCodes.INPUT;
        }
        return run(settings, yaml, err);
    }

    private int run(ProcessorSettings settings, String yaml, PrintWriter err) {
        Optional<HttpFrontend> frontend = Optional.ofNullable(given.get());
        try {
            settings = Startup.prepare(settings, yaml, replicationFactor == null);
        } catch (RuntimeException e) {
            err.println("siteflow process: " + e.getMessage());
            return ExitCodes.FAILURE;
        }
        LOG.info("effective configuration: {}", settings.describe());
        ProcessorRuntime rt;
        try {
            rt = ProcessorRuntime.create(settings, frontend.map(HttpFrontend::instanceClient)
                    .orElse(io.siteflow.processor.query.InstanceClient.NONE), topologyHook);
        } catch (RuntimeException e) {
            err.println("siteflow process: " + e.getMessage());
            return ExitCodes.FAILURE;
        }
        rt.onGiveUp(stopped::countDown);
        StopSignals.onStop(stopped::countDown);
        rt.start();
        runtime = rt;
        frontend.ifPresent(f -> f.start(rt));
        spec.commandLine().getOut().println("siteflow process: running as " + settings.topology().applicationId()
                + (frontend.isPresent() && settings.httpPort() > 0 ? ", http on " + settings.httpBind() + ":"
                + settings.httpPort() : ""));
        spec.commandLine().getOut().flush();
        awaitStop();
        frontend.ifPresent(HttpFrontend::close);
        boolean failed = rt.gaveUp();
        rt.close();
        return failed ? ExitCodes.FAILURE : ExitCodes.OK;
    }

    private void awaitStop() {
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The settings the parsed options give (package-private for tests). */
    ProcessorSettings settings() {
        TopologyConfig topology = TopologyConfig.DEFAULTS.withApplicationId(applicationId).withWindow(window, grace)
                .withBaseline(baseline).withAlertRepeat(alertRepeat);
        if (httpPort < 0 || httpPort > 65535) {
            throw new IllegalArgumentException("--http-port: " + httpPort + " is not a port (0-65535)");
        }
        if (partitions < 1) {
            throw new IllegalArgumentException("--partitions: " + partitions + " must be at least 1");
        }
        if (replicationFactor != null && (replicationFactor < 1 || replicationFactor > Short.MAX_VALUE)) {
            throw new IllegalArgumentException("--replication-factor: " + replicationFactor + " must be at least 1");
        }
        if (httpPort > 0 && httpToken.isEmpty() && !httpInsecure && !loopback(httpBind)) {
            throw new IllegalArgumentException("--http-bind " + httpBind + " serves the API beyond this host "
                    + "without a token: set --http-token, or say --http-insecure to serve it to anyone who reaches "
                    + "the port");
        }
        String bootstrap = kafkaOptions.requireBootstrap();
        Map<String, String> properties = kafkaOptions.clientProperties();
        return new ProcessorSettings(bootstrap, sites, httpPort, httpBind,
                advertisedHost == null ? httpBind : advertisedHost, httpToken, properties, stateDir, topology,
                new SiteflowTopics(partitions, (short) (replicationFactor == null ? 1 : replicationFactor)),
                httpAllowedHosts);
    }

    /** True when every address {@code bind} names is a loopback address (false when it names none). */
    private static boolean loopback(String bind) {
        try {
            return Arrays.stream(InetAddress.getAllByName(bind)).allMatch(InetAddress::isLoopbackAddress);
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** Asks a running command to stop, as SIGTERM does. */
    public void stop() {
        stopped.countDown();
    }

    /** The runtime once Kafka Streams has been started. */
    public Optional<ProcessorRuntime> runtime() {
        return Optional.ofNullable(runtime);
    }

    /**
     * A picocli command line with siteflow's exit codes (64 for wrong usage, the message alone on standard error).
     * The {@code siteflow} launcher uses the agent's {@code AgentMain.commandLine} instead, which also prints a
     * "Try ... --help" hint (stream-processor cannot depend on capture-agent; ProcessCommandTest pins this output).
     */
    public static CommandLine commandLine(ProcessCommand command) {
        CommandLine cl = new CommandLine(command);
        cl.setParameterExceptionHandler((ex, args) -> {
            ex.getCommandLine().getErr().println("siteflow process: " + ex.getMessage());
            return ExitCodes.USAGE;
        });
        return cl;
    }

    public static void main(String[] args) {
        System.exit(commandLine(new ProcessCommand()).execute(args));
    }
}
