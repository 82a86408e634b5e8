package io.siteflow.processor.topology;

import io.siteflow.processor.topology.isolation.EdgeCodec;
import io.siteflow.processor.topology.isolation.EdgeUpdate;
import io.siteflow.processor.topology.isolation.EdgeWindows;
import io.siteflow.processor.topology.isolation.IsolationAlerts;
import io.siteflow.processor.topology.isolation.IsolationStores;
import io.siteflow.processor.topology.store.CommitHook;
import io.siteflow.processor.topology.store.SegmentMarks;
import io.siteflow.processor.topology.store.WriteBehind;
import io.siteflow.rules.isolation.HostRtt;
import io.siteflow.rules.isolation.IsolationEdge;
import java.util.Set;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The isolation stage's step in the task of an edge ({@link IsolationStage}): for each record's {@link EdgeUpdate},
 * adds its RTT entries; applies the observer rule of the edge (the first agent whose record of the edge came is its
 * observer, kept in a store; other agents' records of it are not added, as {@code IsolationInputsBuilder} does);
 * counts {@code siteflow_isolation_bytes_total{decision,rule}}; adds the edge to its window
 * ({@link EdgeWindows}); raises the {@code ISOLATION} alerts of a violation and the {@code CLEARED} of quiet edges
 * ({@link IsolationAlerts}); and writes each window's edges to {@code siteflow.isolation} when stream time closes
 * it (a late record's window at once). Stream time here is the step's own: the largest record start it has seen,
 * kept in the meta store. Everything runs inline per record (deterministic, covered by exactly-once); the stores
 * are written when the task commits ({@link CommitHook}). Edges go to the child {@value #EDGES_OUT}, alerts to
 * {@value #ALERTS_OUT}.
 */
final class IsolationStep implements Processor<String, EdgeUpdate, String, String> {
    /** The child that writes edges to {@code siteflow.isolation}. */
    static final String EDGES_OUT = "isolation-to-topic";
    /** The child that writes alerts to {@code siteflow.alerts}. */
    static final String ALERTS_OUT = "isolation-to-alerts";
    private final TopologyConfig config;
    private final PipelineMetrics metrics;
    private ProcessorContext<String, String> context;
    private WriteBehind<String> observers;
    private WriteBehind<long[]> rtts;
    private WriteBehind<long[]> meta;
    private EdgeWindows windows;
    private IsolationAlerts alerts;
    private WindowStore<String, byte[]> alertLog;
    private long streamTime;

    private IsolationStep(TopologyConfig config, PipelineMetrics metrics) {
        this.config = config;
        this.metrics = metrics;
    }

    /** The step with its stores. */
    static ProcessorSupplier<String, EdgeUpdate, String, String> supplier(TopologyConfig config, PipelineMetrics metrics) {
        return new ProcessorSupplier<>() {
            @Override
            public Processor<String, EdgeUpdate, String, String> get() {
                return new IsolationStep(config, metrics);
            }

            @Override
            public Set<StoreBuilder<?>> stores() {
                long window = config.window().toMillis();
                return Set.of(IsolationStores.window(IsolationStores.EDGES, config.historyRetention(), window, false),
                        IsolationStores.window(IsolationStores.ALERTS, config.historyRetention(), window, true),
                        IsolationStores.observers(), IsolationStores.longs(IsolationStores.RTTS),
                        IsolationStores.longs(IsolationStores.META), CommitHook.builder(IsolationStores.COMMIT_HOOK));
            }
        };
    }

    @Override
    public void init(ProcessorContext<String, String> context) {
        this.context = context;
        observers = new WriteBehind<>(context.getStateStore(IsolationStores.OBSERVERS));
        rtts = new WriteBehind<>(context.getStateStore(IsolationStores.RTTS));
        meta = new WriteBehind<>(context.getStateStore(IsolationStores.META));
        WindowStore<String, byte[]> edges = context.getStateStore(IsolationStores.EDGES);
        alertLog = context.getStateStore(IsolationStores.ALERTS);
        windows = new EdgeWindows(config.window().toMillis(), config.grace().toMillis(), edges);
        alerts = new IsolationAlerts(config.alertRepeat().toMillis(), meta);
        load();
        SegmentMarks.keep(context, edges, new byte[0]);
        SegmentMarks.keep(context, alertLog, new byte[0]);
        CommitHook hook = context.getStateStore(IsolationStores.COMMIT_HOOK);
        hook.onCommit(this::flush, this::discard);
    }

    private void load() {
        long[] t = meta.get(IsolationStores.STREAM_TIME);
        streamTime = t == null ? Long.MIN_VALUE : t[0];
        windows.load(streamTime);
        alerts.load();
    }

    private void flush() {
        windows.flush();
        observers.flush();
        rtts.flush();
        long[] t = meta.get(IsolationStores.STREAM_TIME);
        if (streamTime != Long.MIN_VALUE && (t == null || t[0] != streamTime)) {
            meta.put(IsolationStores.STREAM_TIME, new long[] {streamTime});
        }
        meta.flush();
    }

    private void discard() {
        observers.discard();
        rtts.discard();
        meta.discard();
        load();
    }

    @Override
    public void process(Record<String, EdgeUpdate> rec) {
        EdgeUpdate u = rec.value();
        if (u == null || rec.key() == null) {
            return;
        }
        streamTime = Math.max(streamTime, u.time());
        for (HostRtt h : u.rtts()) {
            long[] v = rtts.change(h.key(), () -> new long[] {0, Long.MAX_VALUE});
            v[0] += h.samples();
            v[1] = Math.min(v[1], h.minMicros());
        }
        alerts.quiet(streamTime).forEach(this::emit);
        u.edge().ifPresent(e -> count(rec.key(), e, u.policy()));
        for (EdgeWindows.Out o : windows.closeDue(streamTime)) {
            write(o);
        }
    }

    private void count(String key, IsolationEdge e, boolean policy) {
        String observer = observers.get(key);
        if (observer == null) {
            observers.put(key, e.observer());
        } else if (!observer.equals(e.observer())) {
            metrics.isolationOtherObserver.increment();
            return;
        }
        metrics.isolationBytes(e.decision(), e.rule(), e.bytes());
        EdgeWindows.Added a = windows.add(e.partKey(), e); // one entry per decision part: T3 on 1521 beside TNS
        if (a.late()) {
            write(a.out());
        }
        if (policy && e.violates()) {
            alerts.violation(key, e, a.out().window().end()).ifPresent(this::emit);
        }
    }

    private void write(EdgeWindows.Out o) {
        context.forward(new Record<>(o.edgeKey() + "|" + o.window().start(),
                EdgeCodec.toJson(o.edge(), o.window().start(), o.window().end()), o.window().end()), EDGES_OUT);
    }

    private void emit(IsolationAlerts.Event e) {
        String json = AlertJson.toJson(new Alert(e.type(), e.key(), e.timeMs(), e.message()));
        alertLog.put(e.key(), json.getBytes(java.nio.charset.StandardCharsets.UTF_8), e.timeMs());
        metrics.alerts.increment();
        context.forward(new Record<>(e.key(), json, e.timeMs()), ALERTS_OUT);
    }
}
