package io.siteflow.processor.topology;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The topology's own counters (Kafka Streams' metrics are bound separately by the runtime). Names start with
 * {@code siteflow.processor.}. Thread-safe.
 */
public final class PipelineMetrics {
    final Counter recordsIn;
    final Counter deadLetters;
    final Counter duplicates;
    final Counter unaudited;
    final Counter noModel;
    final Counter otherObserver;
    final Counter late;
    final Counter verdicts;
    final Counter alerts;
    final Timer windowClose;
    private final MeterRegistry registry;

    public PipelineMetrics(MeterRegistry registry) {
        this.registry = registry;
        recordsIn = counter("records.in", "flow records read from siteflow.flows");
        deadLetters = counter("dlq", "records sent to siteflow.dlq");
        duplicates = counter("duplicates", "records dropped because their id was seen before");
        unaudited = counter("records.unaudited", "records that concern no audited pair");
        noModel = counter("records.nomodel", "records dropped because no valid site model was in force");
        otherObserver = counter("records.other.observer", "records not counted: another agent observes the server");
        late = counter("records.late", "records that arrived after their window closed (counted cumulatively only)");
        verdicts = counter("verdicts", "closed-window verdicts written to siteflow.verdicts");
        alerts = counter("alerts", "alerts written to siteflow.alerts");
        windowClose = Timer.builder("siteflow.processor.window.close")
                .description("time spent closing windows and emitting verdicts").register(registry);
    }

    /** Counters in a private registry (tests, or when metrics are not exported). */
    public static PipelineMetrics unregistered() {
        return new PipelineMetrics(new SimpleMeterRegistry());
    }

    public MeterRegistry registry() {
        return registry;
    }

    public long recordsIn() {
        return (long) recordsIn.count();
    }

    public long deadLetters() {
        return (long) deadLetters.count();
    }

    public long duplicates() {
        return (long) duplicates.count();
    }

    public long late() {
        return (long) late.count();
    }

    public long otherObserver() {
        return (long) otherObserver.count();
    }

    public long verdicts() {
        return (long) verdicts.count();
    }

    private Counter counter(String name, String description) {
        return Counter.builder("siteflow.processor." + name).description(description).register(registry);
    }
}
