package io.siteflow.processor.app;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.siteflow.processor.query.Cluster;
import io.siteflow.processor.query.InstanceClient;
import io.siteflow.processor.query.LocalStoreView;
import io.siteflow.processor.query.ProcessorHealth;
import io.siteflow.processor.query.StreamsQueries;
import io.siteflow.processor.query.StoreWhatIf;
import io.siteflow.processor.query.WhatIfSource;
import io.siteflow.processor.topology.ModelCache;
import io.siteflow.processor.topology.PipelineMetrics;
import io.siteflow.processor.topology.SiteflowTopology;
import io.siteflow.processor.topology.TopologyConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running stream processor: the {@link KafkaStreams} instance, the {@link StreamsQueries} over its stores and
 * the Prometheus registry with Kafka Streams' metrics and siteflow's own. What the HTTP side is given.
 *
 * <p>Before Kafka Streams starts, local state that another cluster or since recreated topics built is discarded
 * ({@link StateDirGuard}). When Kafka Streams fails (state ERROR: its global thread died, or a stream thread shut the
 * client down) a new instance is started after a back-off ({@link RestartPolicy}), counted in
 * {@code siteflow_processor_streams_restarts_total}; the queries, the HTTP side and the registry stay and read the
 * new one. {@link #health()} is DOWN meanwhile. When the policy gives up, {@link #onGiveUp} is told.
 * Lifecycle: {@link #create}, {@link #start}, {@link #close} (once; idempotent). Thread-safe.
 */
public final class ProcessorRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessorRuntime.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    private final ProcessorSettings settings;
    private final TopologyConfig topology;
    private final ModelCache models;
    private final UnaryOperator<Topology> hook;
    /** The stages after classification the topology gets: the product's, or a benchmark's choice. */
    private final java.util.List<io.siteflow.processor.topology.ClassifiedStage> stages;
    private final StreamsQueries queries;
    private final PrometheusMeterRegistry registry;
    private final PipelineMetrics metrics;
    private final WhatIfSource whatIf;
    private final Counter restarts;
    private final RestartPolicy policy = new RestartPolicy();
    private final StateDirGuard stateDir;
    private final ScheduledExecutorService restarter = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "siteflow-streams-restart");
        t.setDaemon(true);
        return t;
    });
    private final AtomicReference<Generation> current = new AtomicReference<>();
    private volatile String failure;
    private volatile String plan;
    private volatile Runnable onGiveUp = () -> { };
    private volatile boolean gaveUp;
    private KafkaStreamsMetrics streamsMetrics;
    private boolean closed;

    /** One Kafka Streams instance: the first ({@code number} 0) or a restart; {@code ran} once it was RUNNING. */
    private static final class Generation {
        final KafkaStreams streams;
        final Topology topology;
        final int number;
        final java.util.concurrent.atomic.AtomicBoolean failed = new java.util.concurrent.atomic.AtomicBoolean();
        volatile boolean ran;

        Generation(KafkaStreams streams, Topology topology, int number) {
            this.streams = streams;
            this.topology = topology;
            this.number = number;
        }
    }

    private ProcessorRuntime(ProcessorSettings settings, TopologyConfig topology, ModelCache models,
                             UnaryOperator<Topology> hook, InstanceClient client,
                             java.util.List<io.siteflow.processor.topology.ClassifiedStage> stages) {
        this.stages = stages;
        this.settings = settings;
        this.topology = topology;
        this.models = models;
        this.hook = hook;
        Properties props = settings.streamsProperties();
        this.stateDir = new StateDirGuard(Startup.client(settings),
                Path.of(props.getProperty(StreamsConfig.STATE_DIR_CONFIG)),
                props.getProperty(StreamsConfig.APPLICATION_ID_CONFIG));
        this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        this.metrics = new PipelineMetrics(registry);
        metrics.siteModel(models);
        this.restarts = Counter.builder("siteflow.processor.streams.restarts")
                .description("times Kafka Streams was restarted after it failed").register(registry);
        KafkaStreamsSource source = new KafkaStreamsSource(() -> current.get().streams);
        LocalStoreView local = new LocalStoreView(source.stores(), Clock.systemUTC());
        Cluster cluster = settings.httpPort() > 0
                ? source.cluster(new HostInfo(settings.advertisedHost(), settings.httpPort())) : source.single();
        this.queries = new StreamsQueries(local, cluster, client, models,
                () -> current.get().streams.state() == KafkaStreams.State.RUNNING,
                Clock.systemUTC(), settings.topology(), this::health);
        this.whatIf = new StoreWhatIf(local, cluster, client, models);
    }

    /**
     * Builds the topology and the Kafka Streams instance (not started). Asks Kafka for the partitions of
     * {@code siteflow.flows}, which the topology's own {@code by-server} topic gets too. Removes the local state
     * of tasks an earlier version had and this one does not ({@link StaleTaskDirs}), and all local state when it
     * was built from another cluster or from topics recreated since ({@link LocalState}).
     */
    public static ProcessorRuntime create(ProcessorSettings settings, InstanceClient client) {
        return create(settings, client, UnaryOperator.identity());
    }

    /** As {@link #create(ProcessorSettings, InstanceClient)}, with {@code hook} applied to each topology built. */
    static ProcessorRuntime create(ProcessorSettings settings, InstanceClient client, UnaryOperator<Topology> hook) {
        return create(settings, client, hook, SiteflowTopology.STAGES);
    }

    /**
     * As {@link #create(ProcessorSettings, InstanceClient)}, with {@code stages} after classification instead of the
     * product's {@link SiteflowTopology#STAGES} (bench/streams.sh measures the isolation stage's cost this way).
     */
    public static ProcessorRuntime create(ProcessorSettings settings, InstanceClient client,
                                          java.util.List<io.siteflow.processor.topology.ClassifiedStage> stages) {
        return create(settings, client, UnaryOperator.identity(), stages);
    }

    private static ProcessorRuntime create(ProcessorSettings settings, InstanceClient client,
                                           UnaryOperator<Topology> hook,
                                           java.util.List<io.siteflow.processor.topology.ClassifiedStage> stages) {
        TopologyConfig topology = settings.topology().withPartitions(Startup.flowsPartitions(settings));
        ProcessorRuntime rt = new ProcessorRuntime(settings, topology, new ModelCache(), hook, client, stages);
        rt.current.set(rt.newGeneration(0));
        return rt;
    }

    /** A new Kafka Streams instance over a new topology, its state directory made fit to start. */
    private Generation newGeneration(int number) {
        Topology built = hook.apply(SiteflowTopology.build(topology, models, metrics, stages));
        Properties props = settings.streamsProperties();
        KafkaStreams streams = new KafkaStreams(built, props);
        Generation g = new Generation(streams, built, number);
        StaleTaskDirs.remove(Path.of(props.getProperty(StreamsConfig.STATE_DIR_CONFIG),
                props.getProperty(StreamsConfig.APPLICATION_ID_CONFIG)), built);
        stateDir.prepare(streams, built);
        TransientFailures transients = new TransientFailures();
        streams.setUncaughtExceptionHandler(e -> {
            failure = describe(e);
            return transients.handle(e);
        });
        streams.setStateListener((now, before) -> changed(g, now));
        return g;
    }

    private void changed(Generation g, KafkaStreams.State now) {
        if (now == KafkaStreams.State.RUNNING) {
            policy.running();
            plan = null;
            if (!g.ran) {
                g.ran = true;
                submit(() -> stateDir.recordOrigin(g.topology), Duration.ZERO);
            }
        } else if (now == KafkaStreams.State.ERROR && g.failed.compareAndSet(false, true)) {
            Optional<Duration> wait = policy.failed();
            if (wait.isEmpty()) {
                plan = "gave up after " + RestartPolicy.GIVE_UP_AFTER + " restarts in a row that never ran";
                LOG.error("Kafka Streams failed ({}); {}: stopping", failure, plan);
                gaveUp = true;
                onGiveUp.run();
                return;
            }
            int n = g.number + 1;
            plan = "restart " + n + " in " + wait.get().toSeconds() + " s";
            LOG.warn("Kafka Streams failed ({}); {}", failure, plan);
            submit(() -> restart(g, n), wait.get());
        }
    }

    /** Runs {@code r} on the restart thread after {@code wait}; nothing once closed. */
    private void submit(Runnable r, Duration wait) {
        try {
            restarter.schedule(r, wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            LOG.debug("closed: not running {}", r);
        }
    }

    private void restart(Generation failed, int number) {
        synchronized (this) {
            if (closed || current.get() != failed) {
                return;
            }
            failed.streams.close(CloseOptions.timeout(CLOSE_TIMEOUT));
            Generation next;
            try {
                next = newGeneration(number);
            } catch (RuntimeException e) {
                failure = describe(e);
                failed.failed.set(false);
                changed(failed, KafkaStreams.State.ERROR);
                return;
            }
            current.set(next);
            restarts.increment();
            LOG.warn("restarting Kafka Streams (restart {}) after: {}", number, failure);
            startGeneration(next);
        }
    }

    /** Starts {@code g}; a start that throws (the global stores could not be bootstrapped) counts as a failure. */
    private void startGeneration(Generation g) {
        bindMetrics(g.streams);
        try {
            g.streams.start();
        } catch (RuntimeException e) {
            failure = describe(e);
            changed(g, KafkaStreams.State.ERROR);
        }
    }

    /**
     * Binds Kafka Streams' metrics and starts processing. A stream thread that fails because Kafka was
     * unreachable too long is replaced ({@link TransientFailures}); a failure of the client is restarted from.
     */
    public synchronized void start() {
        startGeneration(current.get());
    }

    private void bindMetrics(KafkaStreams streams) {
        if (streamsMetrics != null) {
            streamsMetrics.close();
        }
        streamsMetrics = new KafkaStreamsMetrics(streams);
        streamsMetrics.bindTo(registry);
    }

    /** Told (once, on a Kafka Streams thread) when Kafka Streams failed and the restarts gave up. */
    void onGiveUp(Runnable r) {
        onGiveUp = r;
    }

    /** True once the restarts gave up ({@link RestartPolicy}). */
    boolean gaveUp() {
        return gaveUp;
    }

    /**
     * UP while Kafka Streams is RUNNING or REBALANCING (once this instance ran), STARTING before the first one first
     * ran, DOWN otherwise: with the state, the last failure and the restart planned.
     */
    public ProcessorHealth health() {
        Generation g = current.get();
        KafkaStreams.State s = g.streams.state();
        boolean live = s == KafkaStreams.State.RUNNING || s == KafkaStreams.State.REBALANCING;
        if (live && g.ran) {
            return ProcessorHealth.UP;
        }
        if (live || s == KafkaStreams.State.CREATED) {
            return g.number == 0 ? ProcessorHealth.starting("Kafka Streams is " + s)
                    : ProcessorHealth.down("Kafka Streams is " + s + " after restart " + g.number + "; it failed: "
                    + failure);
        }
        String p = plan;
        return ProcessorHealth.down("Kafka Streams is " + s + (failure == null ? "" : "; it failed: " + failure)
                + (p == null ? "" : "; " + p));
    }

    /** The restarts of Kafka Streams so far. */
    public long restarts() {
        return (long) restarts.count();
    }

    /** {@code e} and its root cause, on one line. */
    static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? e.toString() : e + ", caused by " + root;
    }

    public ProcessorSettings settings() {
        return settings;
    }

    /** The Kafka Streams instance now running (another one after a restart). */
    public KafkaStreams streams() {
        return current.get().streams;
    }

    public StreamsQueries queries() {
        return queries;
    }

    /** Everything to export on {@code /metrics}. */
    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** The answers of {@code /api/whatif}, from the what-if stage's stores ({@link StoreWhatIf}). */
    public WhatIfSource whatIf() {
        return whatIf;
    }

    public PipelineMetrics metrics() {
        return metrics;
    }

    /** Stops Kafka Streams (committing what was processed, leaving the consumer group) and the metrics. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        restarter.shutdownNow();
        // leave the group so that another instance (or this one restarted) takes the partitions over at once
        // instead of after the session timeout
        Generation g = current.get();
        g.streams.close(CloseOptions.groupMembershipOperation(
                CloseOptions.GroupMembershipOperation.LEAVE_GROUP).withTimeout(CLOSE_TIMEOUT));
        if (g.streams.state() == KafkaStreams.State.NOT_RUNNING && g.ran) {
            stateDir.recordGlobalEnds(g.topology);
        }
        if (streamsMetrics != null) {
            streamsMetrics.close();
        }
        registry.close();
    }
}
