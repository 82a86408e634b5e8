package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecordFormatException;
import java.time.Duration;
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
 *
 * <p>A readable record whose {@code start} is more than {@link #MAX_AHEAD} ahead of this processor's clock is a
 * dead letter too (its reason says by how much): its event time would become the timestamp of what the topology
 * writes (the {@code by-server} copy, verdicts, alerts), and Kafka refuses records more than
 * {@code log.message.timestamp.after.max.ms} (1 h by default) ahead of the broker's clock, which would stop the
 * processor on this record at every restart. A start before 1970 is read as 0 (the epoch).
 */
final class IngestStep implements Processor<byte[], byte[], Object, Object> {
    /** The child that writes dead letters to {@code siteflow.dlq}. */
    static final String DEAD_LETTERS = "to-dlq";
    /** The child that leads to this task's audit step. */
    static final String HERE = "to-audit";
    /** The child that leads to the {@code by-server} topic. */
    static final String ELSEWHERE = "elsewhere";
    /** How far ahead of this processor's clock a record's start may be (an agent's clock a little fast). */
    static final Duration MAX_AHEAD = io.siteflow.model.wire.ClockSkew.MAX_AHEAD; // the agent's limit too
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
            deadLetter(rec, e.getMessage());
            return;
        }
        // event time from here on: the record's start (the topic's own timestamp is its arrival)
        long t = Math.max(parsed.record().start(), 0);
        long now = context.currentSystemTimeMs();
        if (io.siteflow.model.wire.ClockSkew.tooFarAhead(t, now)) {
            metrics.ahead.increment();
            deadLetter(rec, ParseStep.aheadOfClock(t, now, MAX_AHEAD));
            return;
        }
        if (dedupe.firstTime(parsed.record().id(), t)) {
            route.route(rec, t, parsed);
        }
    }

    private void deadLetter(Record<byte[], byte[]> rec, String error) {
        metrics.deadLetters.increment();
        context.forward(rec.withValue(ParseStep.deadLetter(error, rec.value(), context.recordMetadata().orElse(null))),
                DEAD_LETTERS);
    }
}
