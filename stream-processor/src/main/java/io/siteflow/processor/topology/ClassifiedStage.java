package io.siteflow.processor.topology;

import org.apache.kafka.streams.kstream.KStream;

/**
 * A stage after classification: the seam where a step that reads every classified record attaches to the
 * topology without touching the route and audit steps (stream-processor/docs/topology.md, "Stages after
 * classification"). The product's stages are listed in {@link SiteflowTopology#STAGES}; adding one touches its own
 * package and that line.
 *
 * <p>{@link #attach} is called once while the topology is built, with the stream of every record that was read,
 * was not a repeat and was classified with a model in force (records arriving before the first valid model, dead
 * letters and duplicates are not on it), each exactly once, keyed by its original key bytes and timestamped by its
 * event time. A stage adds its own nodes, stores and sinks downstream of it (its own topic, {@code siteflow.alerts});
 * it must not change the records (they are shared with the other stages and the route step). Node and store names
 * should start with {@link #name()}. Implementations are stateless; the processors they add are per task.
 */
public interface ClassifiedStage {

    /** A short name, the prefix of the stage's node and store names ({@code isolation}). */
    String name();

    /** Adds the stage's nodes downstream of {@code classified}; {@code metrics} is where it counts. */
    void attach(KStream<byte[], Classified> classified, TopologyConfig config, PipelineMetrics metrics);
}
