package io.siteflow.processor.app;

import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.siteflow.processor.query.Cluster;
import io.siteflow.processor.query.FlowsTopicWhatIf;
import io.siteflow.processor.query.InstanceClient;
import io.siteflow.processor.query.KafkaStreamsStores;
import io.siteflow.processor.query.LocalStoreView;
import io.siteflow.processor.query.StreamsQueries;
import io.siteflow.processor.query.WhatIfSource;
import io.siteflow.processor.topology.ModelCache;
import io.siteflow.processor.topology.PipelineMetrics;
import io.siteflow.processor.topology.SiteflowTopology;
import io.siteflow.processor.topology.TopologyConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.HostInfo;

/**
 * A running stream processor: the {@link KafkaStreams} instance, the {@link StreamsQueries} over its stores and
 * the Prometheus registry with Kafka Streams' metrics and siteflow's own. What the HTTP side is given.
 * Lifecycle: {@link #create}, {@link #start}, {@link #close} (once; idempotent). Thread-safe.
 */
public final class ProcessorRuntime implements AutoCloseable {
    private final ProcessorSettings settings;
    private final KafkaStreams streams;
    private final StreamsQueries queries;
    private final PrometheusMeterRegistry registry;
    private final PipelineMetrics metrics;
    private final WhatIfSource whatIf;
    private KafkaStreamsMetrics streamsMetrics;
    private boolean closed;

    /** How long {@code /api/whatif} may read {@code siteflow.flows}. */
    static final Duration WHATIF_TIMEOUT = Duration.ofMinutes(2);

    private ProcessorRuntime(ProcessorSettings settings, KafkaStreams streams, StreamsQueries queries,
                             PrometheusMeterRegistry registry, PipelineMetrics metrics, WhatIfSource whatIf) {
        this.settings = settings;
        this.whatIf = whatIf;
        this.streams = streams;
        this.queries = queries;
        this.registry = registry;
        this.metrics = metrics;
    }

    /**
     * Builds the topology and the Kafka Streams instance (not started). Asks Kafka for the partitions of
     * {@code siteflow.flows}, which the topology's own {@code by-server} topic gets too. Removes the local state
     * of tasks an earlier version had and this one does not ({@link StaleTaskDirs}).
     */
    public static ProcessorRuntime create(ProcessorSettings settings, InstanceClient client) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        PipelineMetrics metrics = new PipelineMetrics(registry);
        ModelCache models = new ModelCache();
        metrics.siteModel(models);
        TopologyConfig topology = settings.topology().withPartitions(Startup.flowsPartitions(settings));
        Topology built = SiteflowTopology.build(topology, models, metrics);
        Properties props = settings.streamsProperties();
        KafkaStreams streams = new KafkaStreams(built, props);
        StaleTaskDirs.remove(Path.of(props.getProperty(StreamsConfig.STATE_DIR_CONFIG),
                props.getProperty(StreamsConfig.APPLICATION_ID_CONFIG)), built);
        Cluster cluster = settings.httpPort() > 0
                ? Cluster.of(streams, new HostInfo(settings.advertisedHost(), settings.httpPort()))
                : Cluster.SINGLE;
        LocalStoreView local = new LocalStoreView(new KafkaStreamsStores(streams), Clock.systemUTC());
        StreamsQueries queries = new StreamsQueries(local, cluster,
                client, models, () -> streams.state() == KafkaStreams.State.RUNNING, Clock.systemUTC(),
                settings.topology());
        WhatIfSource whatIf = new FlowsTopicWhatIf(Startup.client(settings), () -> models.forYaml(local.sitesYaml()),
                WHATIF_TIMEOUT);
        return new ProcessorRuntime(settings, streams, queries, registry, metrics, whatIf);
    }

    /**
     * Binds Kafka Streams' metrics and starts processing. A stream thread that fails because Kafka was
     * unreachable too long is replaced ({@link TransientFailures}); any other failure stops the client.
     */
    public synchronized void start() {
        streams.setUncaughtExceptionHandler(new TransientFailures());
        streamsMetrics = new KafkaStreamsMetrics(streams);
        streamsMetrics.bindTo(registry);
        streams.start();
    }

    public ProcessorSettings settings() {
        return settings;
    }

    public KafkaStreams streams() {
        return streams;
    }

    public StreamsQueries queries() {
        return queries;
    }

    /** Everything to export on {@code /metrics}. */
    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** The answers of {@code /api/whatif} ({@link FlowsTopicWhatIf}). */
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
        // leave the group so that another instance (or this one restarted) takes the partitions over at once
        // instead of after the session timeout
        streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
        if (streamsMetrics != null) {
            streamsMetrics.close();
        }
        registry.close();
    }
}
