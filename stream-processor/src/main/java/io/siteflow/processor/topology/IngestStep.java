package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecordFormatException;
import io.siteflow.rules.classify.Classification;
import java.time.Duration;
import java.util.Optional;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * One processor node for the steps every record of {@code siteflow.flows} takes before the audit:
 * {@link ParseStep parse}, {@link DedupeStep dedupe}, classify (once, with the site model in force),
 * {@link RouteStep route}. Each result goes to the one child node it is for, by name, so a record costs one node
 * here instead of a node per step, filter and branch:
 * <ul>
 *   <li>{@value #DEAD_LETTERS}: an unreadable value as its dead letter (original key, arrival time);</li>
 *   <li>{@value #CLASSIFIED}: every classified record as {@link Classified} (original key, event time), for the
 *       stages after classification ({@link ClassifiedStage}); only when the topology has stages;</li>
 *   <li>{@value #HERE}: a {@link Routed} copy this task audits, keyed by its server, timestamped by its start;</li>
 *   <li>{@value #ELSEWHERE}: a {@link Routed} copy for another task's server (towards {@code by-server}).</li>
 * </ul>
 * Duplicates, records that arrive while no valid model is in force and (but for the stages) records of no audited
 * pair go nowhere (counted). Never throws for a bad value.
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
    /** The child that leads to the stages after classification (present only when there are stages). */
    static final String CLASSIFIED = "classified";
    /** How far ahead of this processor's clock a record's start may be (an agent's clock a little fast). */
    static final Duration MAX_AHEAD = io.siteflow.model.wire.ClockSkew.MAX_AHEAD; // the agent's limit too
    private final TopologyConfig config;
    private final ModelCache models;
    private final PipelineMetrics metrics;
    private final boolean staged;
    private ProcessorContext<Object, Object> context;
    private StateStore sites;
    private DedupeStep dedupe;
    private RouteStep route;

    /** @param staged whether the topology has stages after classification (a child {@value #CLASSIFIED}) */
    IngestStep(TopologyConfig config, ModelCache models, PipelineMetrics metrics, boolean staged) {
        this.config = config;
        this.models = models;
        this.metrics = metrics;
        this.staged = staged;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        this.sites = context.getStateStore(TopologySpec.SITES_STORE);
        this.dedupe = new DedupeStep(context, metrics, config.dedupeRetention().toMillis());
        this.route = new RouteStep(context, metrics, config.partitions(), HERE, ELSEWHERE);
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
        if (!dedupe.firstTime(parsed.record().id(), t)) {
            return;
        }
        Optional<ActiveModel> m = models.inForce(sites);
        if (m.isEmpty()) {
            metrics.noModel.increment();
            return;
        }
        // classified once, here: the stages and the route step take this classification
        Classification c = m.get().classifier().classify(parsed.flow());
        if (staged) {
            context.forward(new Record<>(rec.key(), new Classified(parsed.record(), parsed.flow(), c, m.get()), t,
                    rec.headers()), CLASSIFIED);
        }
        route.route(rec, t, parsed, m.get(), c);
    }

    private void deadLetter(Record<byte[], byte[]> rec, String error) {
        metrics.deadLetters.increment();
        context.forward(rec.withValue(ParseStep.deadLetter(error, rec.value(), context.recordMetadata().orElse(null))),
                DEAD_LETTERS);
    }
}
