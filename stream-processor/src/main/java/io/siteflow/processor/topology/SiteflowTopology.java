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

import java.util.Map;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
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
    private SiteflowTopology() {
    }

    /** The topology with its own model cache and unregistered metrics (tests). */
    public static Topology build(TopologyConfig config) {
        return build(config, new ModelCache(), PipelineMetrics.unregistered());
    }

    /**
     * The topology.
     *
     * @param models  the site-model cache the processors and the query side share
     * @param metrics the pipeline counters
     */
    public static Topology build(TopologyConfig config, ModelCache models, PipelineMetrics metrics) {
        StreamsBuilder builder = new StreamsBuilder();

        // the site model (YAML text under key "sites") and the agents' last heartbeats: global, on every instance
        KnownAgents agents = new KnownAgents();
        builder.addGlobalStore(textStore(SITES_STORE), SITES, Consumed.with(STRING, STRING).withName("sites"),
                () -> new GlobalTextStep(SITES_STORE, models::offer));
        builder.addGlobalStore(textStore(AGENTS_STORE), AGENTS, Consumed.with(STRING, STRING).withName("agents"),
                () -> new GlobalTextStep(AGENTS_STORE, (k, v) -> agents.changed()));
        // the dedupe and audit steps' own stores (StateStores)
        StateStores.addTo(builder, config);

        // flow records as bytes, timestamped by arrival (LogAppendTime) until the parse step reads their start
        KStream<byte[], Parsed> parsed = builder
                .stream(FLOWS, Consumed.with(BYTES, BYTES).withTimestampExtractor(new UsePartitionTimeOnInvalidTimestamp())
                        .withName("flows"))
                // parse; what does not parse becomes a dead letter
                .processValues(() -> new ParseStep(metrics), Named.as("parse"));

        // dead letters to siteflow.dlq under their original key
        parsed.filter((k, v) -> v instanceof Parsed.Bad, Named.as("unreadable"))
                .mapValues(v -> ((Parsed.Bad) v).deadLetterJson(), Named.as("dead-letter"))
                .to(DLQ, Produced.with(BYTES, STRING).withName("to-dlq"));

        Map<String, KStream<String, Routed>> routed = parsed
                // readable records go on
                .filter((k, v) -> v instanceof Parsed.Ok, Named.as("readable"))
                .mapValues(v -> (Parsed.Ok) v, Named.as("record"))
                // drop a record whose id was seen within the dedupe retention
                .processValues(() -> new DedupeStep(metrics, config.dedupeRetention().toMillis()), Named.as("dedupe"), StateStores.DEDUPE_STORES)
                // classify; keep records of audited pairs, keyed by each audited server they concern
                .process(() -> new RouteStep(models, metrics, config.partitions()), Named.as("route"))
                .split(Named.as("route-"))
                .branch((k, v) -> v.here(), Branched.as("here"))
                .defaultBranch(Branched.as("elsewhere"));
        // a record read in its server's partition is audited by this task, with its classification; the others go
        // to their server's task as bare records (the audit step classifies those again)
        KStream<String, Routed> here = routed.get("route-here");
        KStream<String, Routed> moved = routed.get("route-elsewhere")
                .mapValues(Routed::record, Named.as("elsewhere"))
                .repartition(Repartitioned.with(STRING, FLOW_RECORD).withName(TopologySpec.BY_SERVER)
                        .withNumberOfPartitions(config.partitions()))
                .mapValues(Routed::moved, Named.as("moved"));

        KStream<String, Output> out = here.merge(moved, Named.as("to-audit"))
                // observer rule, window and cumulative aggregates, close windows, verdicts and alerts
                .process(() -> new AuditStep(config, models, agents, metrics), Named.as("audit"),
                        StateStores.AUDIT_STORES);

        // window verdicts to siteflow.verdicts keyed "server|remoteSite", alerts to siteflow.alerts
        out.split(Named.as("output-"))
                .branch((k, v) -> v.topic().equals(VERDICTS), Branched.withConsumer(s -> s
                        .mapValues(Output::json, Named.as("verdict-json"))
                        .to(VERDICTS, Produced.with(STRING, STRING).withName("to-verdicts")), "verdicts"))
                .branch((k, v) -> v.topic().equals(ALERTS), Branched.withConsumer(s -> s
                        .mapValues(Output::json, Named.as("alert-json"))
                        .to(ALERTS, Produced.with(STRING, STRING).withName("to-alerts")), "alerts"));

        return builder.build();
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
