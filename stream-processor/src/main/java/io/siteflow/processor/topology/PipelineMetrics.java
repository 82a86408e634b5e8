package io.siteflow.processor.topology;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.siteflow.rules.model.RttLimit;
import io.siteflow.rules.verdict.Verdict;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
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
    final Counter ahead;
    final Counter unaudited;
    final Counter noModel;
    final Counter otherObserver;
    final Counter late;
    final Counter alerts;
    final Counter isolationOtherObserver;
    final Timer windowClose;
    private final MeterRegistry registry;
    /** Gauge values by name and tags; held strongly here because gauges keep their objects weakly. */
    private final Map<String, AtomicReference<Double>> gauges = new ConcurrentHashMap<>();
    /** {@code siteflow.isolation.bytes} by decision and rule, registered once each. */
    private final Map<String, Counter> isolationBytes = new ConcurrentHashMap<>();

    public PipelineMetrics(MeterRegistry registry) {
        this.registry = registry;
        recordsIn = counter("records.in", "flow records read from siteflow.flows");
        deadLetters = counter("dlq", "records sent to siteflow.dlq");
        duplicates = counter("duplicates", "records dropped because their id was seen before");
        ahead = counter("records.ahead", "records sent to siteflow.dlq because their start is ahead of the clock");
        unaudited = counter("records.unaudited", "records that concern no audited pair");
        noModel = counter("records.nomodel", "records dropped because no valid site model was in force");
        otherObserver = counter("records.other.observer", "records not counted: another agent observes the server");
        late = counter("records.late", "records that arrived after their window closed (counted cumulatively only)");
        alerts = counter("alerts", "alerts written to siteflow.alerts");
        isolationOtherObserver = counter("isolation.other.observer",
                "records not added to their isolation edge: another agent observes the edge");
        windowClose = Timer.builder("siteflow.processor.window.close")
                .description("time spent closing windows and emitting verdicts").register(registry);
    }

    /**
     * The gauge {@code siteflow_processor_site_model_rejected}: 1 while the newest site model on
     * {@code siteflow.sites} is rejected and an older one (or none) is in force, else 0.
     */
    public void siteModel(ModelCache models) {
        Gauge.builder("siteflow.processor.site.model.rejected", models, m -> m.rejection().isPresent() ? 1 : 0)
                .description("1 while the newest site model on siteflow.sites has errors and is not in force")
                .register(registry);
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

    /** Records dead-lettered because their start was too far ahead of the processor's clock. */
    public long ahead() {
        return (long) ahead.count();
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

    /** Closed-window verdicts emitted, all outcomes and pairs. */
    public long verdicts() {
        return (long) registry.find("siteflow.processor.verdicts").counters().stream().mapToDouble(Counter::count).sum();
    }

    /**
     * Records a closed window's verdict: {@code siteflow_processor_verdicts_total{verdict,server,remote_site}},
     * the window's DB share and handshake RTT p95 as gauges per pair, the RTT limit in force beside them
     * ({@code siteflow_processor_rtt_limit_seconds}: what the Prometheus rule compares the p95 with, so that it
     * follows the site model's {@code rttLimitMs}), and its bytes per category.
     */
    void windowVerdict(Verdict v, RttLimit limit) {
        Tags pair = Tags.of("server", v.server(), "remote_site", v.remoteSite());
        Counter.builder("siteflow.processor.verdicts").description("closed-window verdicts written to siteflow.verdicts")
                .tags(pair.and("verdict", v.verdict().name())).register(registry).increment();
        gauge("siteflow.processor.db.share", "DB share of the pair's latest closed window (0..1)", pair)
                .set(v.dbShare().doubleValue());
        if (v.rttMicros().samples() > 0) {
            gauge("siteflow.processor.rtt.p95.seconds", "handshake RTT p95 of the pair's latest closed window", pair)
                    .set(v.rttMicros().p95() / 1e6);
        }
        gauge("siteflow.processor.rtt.limit.seconds", "RTT limit in force for the pair (the stricter of Oracle's 10 ms "
                + "and the site model's rttLimitMs)", pair).set(limit.micros() / 1e6);
        v.exporters().ifPresent(e -> gauge("siteflow.processor.exporter.difference.bytes", "the pair's observer's "
                + "cross-site bytes minus the flow exporters' of the same pair, latest closed window (their records "
                + "are compared, not added)", pair).set((double) e.difference()));
        v.categories().forEach((category, bytes) -> Counter.builder("siteflow.processor.bytes")
                .description("cross-site IP bytes of audited pairs, per category").baseUnit("bytes")
                .tag("category", category.name()).register(registry).increment(bytes));
    }

    /**
     * Counts a decided record's IP bytes (both directions) in {@code siteflow_isolation_bytes_total{decision,rule}}
     * ({@code rule} empty for UNLISTED): the bytes the isolation stage added to its edges.
     */
    void isolationBytes(io.siteflow.rules.isolation.Decision decision, String rule, long bytes) {
        isolationBytes.computeIfAbsent(decision.name() + "|" + rule, k -> Counter.builder("siteflow.isolation.bytes")
                .description("IP bytes of the records the isolation stage decided, by decision and rule")
                .baseUnit("bytes").tags("decision", decision.name(), "rule", rule).register(registry))
                .increment(bytes);
    }

    /** The isolation stage's bytes of one decision and rule so far. */
    public long isolationBytes(io.siteflow.rules.isolation.Decision decision, String rule) {
        Counter c = registry.find("siteflow.isolation.bytes").tags("decision", decision.name(), "rule", rule).counter();
        return c == null ? 0 : (long) c.count();
    }

    private AtomicReference<Double> gauge(String name, String description, Tags tags) {
        return gauges.computeIfAbsent(name + tags, k -> {
            AtomicReference<Double> value = new AtomicReference<>(0.0);
            Gauge.builder(name, value, AtomicReference::get).description(description).tags(tags).register(registry);
            return value;
        });
    }

    private Counter counter(String name, String description) {
        return Counter.builder("siteflow.processor." + name).description(description).register(registry);
    }
}
