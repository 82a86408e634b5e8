package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecordFormatException;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * One processor node for the steps every record of {@code siteflow.flows} takes before the audit:
 * {@link ParseStep parse}, {@link DedupeStep dedupe}, {@link RouteStep route}. Each result goes to the one child
 * node it is for, by name, so a record costs one node here instead of a node per step, filter and branch:
 * <ul>
 *   <li>{@value #DEAD_LETTERS}: an unreadable value as its dead letter (original key, arrival time);</li>
 *   <li>{@value #HERE}: a {@link Routed} copy this task audits, keyed by its server, timestamped by its start;</li>
 *   <li>{@value #ELSEWHERE}: a {@link Routed} copy for another task's server (towards {@code by-server}).</li>
 * </ul>
 * Duplicates and records of no audited pair go nowhere (counted). Never throws for a bad value.
 */
final class IngestStep implements Processor<byte[], byte[], Object, Object> {
    /** The child that writes dead letters to {@code siteflow.dlq}. */
    static final String DEAD_LETTERS = "to-dlq";
    /** The child that leads to this task's audit step. */
    static final String HERE = "to-audit";
    /** The child that leads to the {@code by-server} topic. */
    static final String ELSEWHERE = "elsewhere";
    private final TopologyConfig config;
    private final ModelCache models;
    private final PipelineMetrics metrics;
    private ProcessorContext<Object, Object> context;
    private DedupeStep dedupe;
    private RouteStep route;

    IngestStep(TopologyConfig config, ModelCache models, PipelineMetrics metrics) {
        this.config = config;
        this.models = models;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        this.dedupe = new DedupeStep(context, metrics, config.dedupeRetention().toMillis());
        this.route = new RouteStep(context, models, metrics, config.partitions(), HERE, ELSEWHERE);
    }

    @Override
    public void process(Record<byte[], byte[]> rec) {
        metrics.recordsIn.increment();
        Parsed parsed;
        try {
            parsed = ParseStep.read(rec.value());
        } catch (FlowRecordFormatException e) {
            metrics.deadLetters.increment();
            context.forward(rec.withValue(ParseStep.deadLetter(e.getMessage(), rec.value(),
                    context.recordMetadata().orElse(null))), DEAD_LETTERS);
            return;
        }
        // event time from here on: the record's start (the topic's own timestamp is its arrival)
        long t = Math.max(parsed.record().start(), 0);
        if (dedupe.firstTime(parsed.record().id(), t)) {
            route.route(rec, t, parsed);
        }
    }
}
