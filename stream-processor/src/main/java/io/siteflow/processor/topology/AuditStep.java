package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;
import io.siteflow.processor.topology.store.CommitHook;
import io.siteflow.processor.topology.store.SegmentMarks;
import io.siteflow.processor.topology.store.WriteBehind;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.model.Flow;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.observer.ObserverRule;
import io.siteflow.rules.observer.ObserverState;
import io.siteflow.rules.verdict.AuditPair;
import io.siteflow.rules.verdict.AuditSide;
import io.siteflow.rules.verdict.DbSiteEnds;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.VerdictCalculator;
import io.siteflow.rules.verdict.VerdictJson;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The audit of records keyed by audited server address: takes the classification and side the route step
 * computed ({@link Routed}; computed here only for records that crossed the {@code by-server} topic or were routed
 * under another model), applies the observer rule, adds the record to its pair's window and cumulative aggregates, the talker table and the
 * new-peer rule (a record keyed by a database's address instead goes to the site comparison's cumulative
 * aggregate of its database and app server, {@link TopologySpec#dbSiteKey}, and moves no stream time), then
 * closes the windows that stream time has passed and emits their verdicts and alerts.
 * Closing runs inline after each record, so it is deterministic and covered by exactly-once: store updates and
 * emitted records commit together. Verdicts go to the child {@value #VERDICTS}, alerts to {@value #ALERTS}. Stream time here is the step's own: the largest {@code start} of the records
 * that reached it (kept in a store, so it survives restarts); records that never reach the step (unreadable,
 * duplicate, not audited) do not move it.
 */
final class AuditStep implements Processor<String, Routed, String, String> {
    /** The child that writes window verdicts to {@code siteflow.verdicts}. */
    static final String VERDICTS = "to-verdicts";
    /** The child that writes alerts to {@code siteflow.alerts}. */
    static final String ALERTS = "to-alerts";
    private static final String STREAM_TIME = "stream-time";
    private final TopologyConfig config;
    private final ModelCache models;
    private final KnownAgents agents;
    private final PipelineMetrics metrics;
    private ProcessorContext<String, String> context;
    private StateStore sites;
    private ObserverStore observers;
    /** The site comparison's observers: apart from the audit's, as the offline audit keeps them. */
    private ObserverState dbSiteObservers;
    private PairWindows windows;
    private AlertRules alerts;
    private TalkerTable talkers;
    private WriteBehind<Long> meta;
    /** The step's stream time (Long.MIN_VALUE before the first record), written to the meta store on commit. */
    private long streamTime;

    AuditStep(TopologyConfig config, ModelCache models, KnownAgents agents, PipelineMetrics metrics) {
        this.config = config;
        this.models = models;
        this.agents = agents;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<String, String> context) {
        this.context = context;
        sites = context.getStateStore(TopologySpec.SITES_STORE);
        observers = new ObserverStore(context.getStateStore(TopologySpec.OBSERVER_STORE),
                agents.view(context.getStateStore(TopologySpec.AGENTS_STORE)));
        dbSiteObservers = observers.forDbSites();
        windows = new PairWindows(config, context.getStateStore(TopologySpec.OPEN_WINDOW_STORE),
                context.getStateStore(TopologySpec.CUMULATIVE_STORE), context.getStateStore(TopologySpec.CONNECTION_STORE),
                context.getStateStore(TopologySpec.HISTORY_STORE), context.getStateStore(TopologySpec.LATEST_STORE));
        meta = new WriteBehind<>(context.getStateStore(TopologySpec.META_STORE));
        alerts = new AlertRules(config.baseline().toMillis(), config.alertRepeat().toMillis(), meta,
                context.getStateStore(TopologySpec.PEER_STORE),
                context.getStateStore(TopologySpec.ALERT_STORE));
        talkers = new TalkerTable(context.getStateStore(TopologySpec.TALKER_STORE));
        SegmentMarks.keep(context, context.<WindowStore<String, String>>getStateStore(TopologySpec.HISTORY_STORE), "");
        SegmentMarks.keep(context, context.<WindowStore<String, String>>getStateStore(TopologySpec.ALERT_STORE), "");
        streamTime = storedStreamTime();
        CommitHook hook = context.getStateStore(TopologySpec.AUDIT_COMMIT_HOOK);
        hook.onCommit(this::flush, this::discard);
    }

    /** Writes what changed since the last commit to the stores; Kafka Streams calls it before it commits. */
    private void flush() {
        windows.flush();
        talkers.flush();
        observers.flush();
        alerts.flush();
        if (streamTime != storedStreamTime()) {
            meta.put(STREAM_TIME, streamTime);
        }
        meta.flush();
    }

    /** Forgets what changed since the last commit (the transaction was aborted; the task starts again). */
    private void discard() {
        windows.discard();
        talkers.discard();
        observers.discard();
        alerts.discard();
        meta.discard();
        // the stream time field is read from the store again by init, which follows before any record
    }

    @Override
    public void process(Record<String, Routed> rec) {
        Optional<ActiveModel> m = models.inForce(sites);
        if (m.isEmpty()) {
            metrics.noModel.increment();
            return;
        }
        if (m.get().dbSiteEnds().database(rec.key()).isPresent()) {
            countForDbSites(m.get(), rec.key(), rec.value()); // no windows: stream time stays
            return;
        }
        long now = advance(rec.value().record().start());
        count(m.get(), rec.key(), rec.value(), now);
        close(m.get(), now);
    }

    /** The step's stream time: the largest record start it has seen (kept in the meta store). */
    private long advance(long start) {
        if (start > streamTime) {
            streamTime = start;
        }
        return streamTime;
    }

    private long storedStreamTime() {
        Long t = meta.get(STREAM_TIME);
        return t == null ? Long.MIN_VALUE : t;
    }

    private void count(ActiveModel m, String server, Routed routed, long now) {
        FlowRecord r = routed.record();
        Classification c;
        AuditSide side;
        if (routed.routedUnder(m)) {
            c = routed.classification();
            side = routed.side();
        } else { // it crossed the by-server topic, or the model changed since it was routed
            Flow f = Classifier.flowOf(r);
            c = m.classifier().classify(f);
            Optional<AuditSide> s = m.routes().side(server, f, c);
            if (s.isEmpty()) {
                metrics.unaudited.increment();
                return;
            }
            side = s.get();
        }
        Host host = side.pair().server();
        if (!m.observers().counts(host, ObserverRule.observerOf(r), observers)) {
            metrics.otherObserver.increment();
            if (r.exporter() != null) { // an exporter's record of a pair the host agent counts: compared, not added
                windows.compare(m.keyOf(side.pair()), r, now);
            }
            return;
        }
        String remote = side.remoteAddress();
        if (!windows.add(m.keyOf(side.pair()), r, c, remote, now)) {
            metrics.late.increment();
        }
        talkers.add(server, side.initiator(), remote, c.category(), r, context.currentSystemTimeMs());
        alerts.peer(server, c.category(), remote, r.dstPort(), r.start()).ifPresent(this::emit);
    }

    /**
     * A record keyed by a database's address: the site comparison's copy of a DB record ({@link RouteStep}). It
     * counts under the observer rule of its app server (the site comparison's own observer state, apart from the
     * audit's: {@link ObserverStore#forDbSites}), in the cumulative aggregate of the (database, server).
     * The copy counts in no metric (its record did, on its way to the audit or as unaudited).
     */
    private void countForDbSites(ActiveModel m, String database, Routed routed) {
        FlowRecord r = routed.record();
        Classification c = routed.routedUnder(m) ? routed.classification()
                : m.classifier().classify(Classifier.flowOf(r));
        Optional<DbSiteEnds.Ends> ends = m.dbSiteEnds().of(r, c);
        if (ends.isEmpty() || !ends.get().database().address().equals(database)) {
            return; // the model changed since it was routed
        }
        Host host = ends.get().server();
        if (m.observers().counts(host, ObserverRule.observerOf(r), dbSiteObservers)) {
            windows.addCumulative(TopologySpec.dbSiteKey(database, host.address()), r, c, database);
        }
    }

    private void close(ActiveModel m, long now) {
        long t0 = System.nanoTime();
        List<PairWindows.Closed> closed = windows.closeDue(now);
        for (PairWindows.Closed c : closed) {
            Optional<AuditPair> pair = m.pair(c.pair().server(), c.pair().remoteSite());
            if (pair.isEmpty()) {
                continue; // the model in force no longer audits this pair
            }
            Verdict v = VerdictCalculator.verdict(m.model(), pair.get(), c.aggregate(), Optional.of(c.window()),
                    observers.dropsAboveLimit(pair.get().server().address()));
            String json = VerdictJson.toJson(v);
            windows.keep(c, json);
            metrics.windowVerdict(v, m.model().rttLimit());
            String key = c.pair().encoded();
            context.forward(new Record<>(key, json, c.window().end()), VERDICTS);
            alerts.window(v, m.model().dbCallBudget(), m.model().rttLimit()).forEach(this::emit);
        }
        if (!closed.isEmpty()) {
            metrics.windowClose.record(System.nanoTime() - t0, java.util.concurrent.TimeUnit.NANOSECONDS);
        }
    }

    private void emit(Alert a) {
        metrics.alerts.increment();
        context.forward(new Record<>(a.key(), AlertJson.toJson(a), a.timeMs()), ALERTS);
    }
}
