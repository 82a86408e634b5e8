package io.siteflow.processor.topology;

import static io.siteflow.processor.topology.TopologySpec.AGENTS;
import static io.siteflow.processor.topology.TopologySpec.AGENTS_STORE;
import static io.siteflow.processor.topology.TopologySpec.ALERTS;
import static io.siteflow.processor.topology.TopologySpec.BYTES;
import static io.siteflow.processor.topology.TopologySpec.DLQ;
import static io.siteflow.processor.topology.TopologySpec.FLOWS;
import static io.siteflow.processor.topology.TopologySpec.FLOW_RECORD;
import static io.siteflow.processor.topology.TopologySpec.SITES;
import static io.siteflow.processor.topology.TopologySpec.SITES_STORE;
import static io.siteflow.processor.topology.TopologySpec.STRING;
import static io.siteflow.processor.topology.TopologySpec.VERDICTS;

import java.util.List;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.UsePartitionTimeOnInvalidTimestamp;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.TimestampedKeyValueStore;

/**
 * The siteflow Kafka Streams topology (stream-processor/docs/topology.md): flow records in, verdicts, alerts
 * and dead letters out, state stores for the queries. Read top to bottom; one comment per step. Stateless.
 */
public final class SiteflowTopology {
    /** The product's stages after classification ({@link ClassifiedStage}), in attach order: the wiring line. */
    public static final List<ClassifiedStage> STAGES = List.of(new IsolationStage(), new WhatIfStage());

    private SiteflowTopology() {
    }

    /** The topology with its own model cache and unregistered metrics (tests). */
    public static Topology build(TopologyConfig config) {
        return build(config, new ModelCache(), PipelineMetrics.unregistered());
    }

    /**
     * The product's topology: with its {@link #STAGES}.
     *
     * @param models  the site-model cache the processors and the query side share
     * @param metrics the pipeline counters
     */
    public static Topology build(TopologyConfig config, ModelCache models, PipelineMetrics metrics) {
        return build(config, models, metrics, STAGES);
    }

    /**
     * The topology with {@code stages} attached after classification (the product passes {@link #STAGES}).
     *
     * @param models  the site-model cache the processors and the query side share
     * @param metrics the pipeline counters
     */
    public static Topology build(TopologyConfig config, ModelCache models, PipelineMetrics metrics,
                                 List<ClassifiedStage> stages) {
        StreamsBuilder builder = new StreamsBuilder();

        // the site model (YAML text under key "sites") and the agents' last heartbeats: global, on every instance
        KnownAgents agents = new KnownAgents();
        builder.addGlobalStore(textStore(SITES_STORE), SITES, Consumed.with(STRING, STRING).withName("sites"),
                () -> new GlobalTextStep(SITES_STORE, models::offer));
        builder.addGlobalStore(textStore(AGENTS_STORE), AGENTS, Consumed.with(STRING, STRING).withName("agents"),
                () -> new HeartbeatStep(AGENTS_STORE, agents));
        // the dedupe and audit steps' own stores (StateStores)
        StateStores.addTo(builder, config);

        // flow records as bytes, timestamped by arrival (LogAppendTime) until the parse step reads their start;
        // parse, dedupe, classify and route in one node (IngestStep), which hands each result to the child it is for
        KStream<Object, Object> ingested = builder
                .stream(FLOWS, Consumed.with(BYTES, BYTES).withTimestampExtractor(new UsePartitionTimeOnInvalidTimestamp())
                        .withName("flows"))
                .process(() -> new IngestStep(config, models, metrics, !stages.isEmpty()), Named.as("parse-dedupe-route"),
                        StateStores.DEDUPE_STORES);

        // the seam after classification: every classified record, once, to each stage (none: no node at all)
        if (!stages.isEmpty()) {
            KStream<byte[], Classified> classified = SiteflowTopology.<byte[], Classified>resultsOf(ingested)
                    .peek((k, v) -> { }, Named.as(IngestStep.CLASSIFIED));
            stages.forEach(stage -> stage.attach(classified, config, metrics));
        }

        // dead letters to siteflow.dlq under their original key
        SiteflowTopology.<byte[], String>resultsOf(ingested).to(DLQ, Produced.with(BYTES, STRING)
                .withName(IngestStep.DEAD_LETTERS));

        // a copy for another task's server goes there through the by-server topic as a bare record (the audit
        // step classifies it again); a copy read in its server's partition goes straight to this task's audit
        KStream<String, Routed> moved = SiteflowTopology.<String, Routed>resultsOf(ingested)
                .mapValues(Routed::record, Named.as(IngestStep.ELSEWHERE))
                .repartition(Repartitioned.with(STRING, FLOW_RECORD).withName(TopologySpec.BY_SERVER)
                        .withNumberOfPartitions(config.partitions()))
                .mapValues(Routed::moved, Named.as("moved"));
        KStream<String, Routed> here = resultsOf(ingested);

        KStream<String, String> out = here.merge(moved, Named.as(IngestStep.HERE))
                // observer rule, window and cumulative aggregates, close windows, verdicts and alerts
                .process(() -> new AuditStep(config, models, agents, metrics), Named.as("audit"),
                        StateStores.AUDIT_STORES);

        // window verdicts to siteflow.verdicts keyed "server|remoteSite", alerts to siteflow.alerts (the audit
        // step forwards each to its own child)
        out.to(VERDICTS, Produced.with(STRING, STRING).withName(AuditStep.VERDICTS));
        out.to(ALERTS, Produced.with(STRING, STRING).withName(AuditStep.ALERTS));

        return builder.build();
    }

    /**
     * The results of {@link IngestStep} of one kind: the node forwards each result to the child for its kind
     * (by name), so every child gets only records of its own types.
     */
    @SuppressWarnings("unchecked")
    private static <K, V> KStream<K, V> resultsOf(KStream<Object, Object> ingested) {
        return (KStream<K, V>) (KStream<?, ?>) ingested;
    }

    /**
     * A global store of texts by key: filled from its topic, so no changelog. Timestamped, as the global tables of
     * earlier versions were, so that their state directories still open.
     */
    private static StoreBuilder<TimestampedKeyValueStore<String, String>> textStore(String name) {
        return Stores.timestampedKeyValueStoreBuilder(Stores.persistentTimestampedKeyValueStore(name), STRING, STRING)
                .withLoggingDisabled();
    }
}
