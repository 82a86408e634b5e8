package io.siteflow.processor.topology;

import io.siteflow.processor.topology.store.CommitHook;
import io.siteflow.processor.topology.store.WriteBehind;
import io.siteflow.processor.topology.whatif.WhatIfStores;
import io.siteflow.processor.topology.whatif.WhatIfUpdate;
import io.siteflow.rules.observer.ObserverRule;
import io.siteflow.rules.observer.ObserverState;
import io.siteflow.rules.verdict.RttHistogram;
import io.siteflow.rules.whatif.ServerTraffic;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * The what-if stage's step in the task of a server ({@link WhatIfStage}): per update, adds its RTT sample to its site
 * pair's day ({@link WhatIfStores#RTTS}); applies the observer rule of the server
 * ({@link ObserverRule#countsObservable}: the host agent once seen, by a record or a heartbeat in the global agents
 * store, else the first edge agent; the state in {@link WhatIfStores#OBSERVERS}), so a flow seen by a host agent and
 * an edge agent counts once; adds the counted entry to the server's day ({@link WhatIfStores#SERVERS}, a bounded
 * {@link ServerTraffic}). Stream time here is the step's own, the largest record start it has seen (not stored: the
 * first record after a restart sets it again); an update for a day already past the retention is dropped, and on the
 * first record of each new day the days past it are deleted. The stores are written when the task commits
 * ({@link CommitHook}). Forwards nothing.
 */
final class WhatIfStep implements Processor<String, WhatIfUpdate, Void, Void> {
    /** How long an agent without a heartbeat is not looked up again in the global store, wall-clock ms. */
    private static final long ABSENT_MS = 1_000;
    private static final long RETENTION_MS = WhatIfStores.RETENTION.toMillis();
    private ProcessorContext<Void, Void> context;
    private WriteBehind<ServerTraffic> servers;
    private WriteBehind<RttHistogram> rtts;
    private WriteBehind<String> observers;
    private StateStore agents;
    private final Map<String, Long> absentUntil = new HashMap<>();
    private final ObserverState state = new ObserverState() {
        @Override
        public String observer(String serverAddress) {
            return observers.get(serverAddress);
        }

        @Override
        public void observe(String serverAddress, String agent) {
            observers.put(serverAddress, agent);
        }

        @Override
        public boolean heardFrom(String agent) {
            return heartbeatOf(agent);
        }
    };
    private long streamTime = Long.MIN_VALUE;
    /** The newest day whose older days were deleted. */
    private long sweptDay = Long.MIN_VALUE;

    /** The step with its stores. */
    static ProcessorSupplier<String, WhatIfUpdate, Void, Void> supplier() {
        return new ProcessorSupplier<>() {
            @Override
            public Processor<String, WhatIfUpdate, Void, Void> get() {
                return new WhatIfStep();
            }

            @Override
            public Set<StoreBuilder<?>> stores() {
                return Set.of(WhatIfStores.servers(), WhatIfStores.rtts(), WhatIfStores.observers(),
                        CommitHook.builder(WhatIfStores.COMMIT_HOOK));
            }
        };
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        servers = new WriteBehind<>(context.getStateStore(WhatIfStores.SERVERS));
        rtts = new WriteBehind<>(context.getStateStore(WhatIfStores.RTTS));
        observers = new WriteBehind<>(context.getStateStore(WhatIfStores.OBSERVERS));
        agents = context.getStateStore(TopologySpec.AGENTS_STORE);
        CommitHook hook = context.getStateStore(WhatIfStores.COMMIT_HOOK);
        hook.onCommit(this::flush, this::discard);
    }

    private void flush() {
        servers.flush();
        rtts.flush();
        observers.flush();
    }

    private void discard() {
        servers.discard();
        rtts.discard();
        observers.discard();
    }

    @Override
    public void process(Record<String, WhatIfUpdate> rec) {
        WhatIfUpdate u = rec.value();
        if (u == null || rec.key() == null) {
            return;
        }
        streamTime = Math.max(streamTime, u.time());
        long day = WhatIfStores.dayOf(u.time());
        long newestDay = WhatIfStores.dayOf(streamTime);
        if (newestDay > sweptDay) {
            sweep(newestDay - RETENTION_MS);
            sweptDay = newestDay;
        }
        if (day < newestDay - RETENTION_MS) {
            return; // older than what is kept
        }
        u.rtt().ifPresent(r -> rtts.change(WhatIfStores.rttKey(r.pair().siteA(), r.pair().siteB(), day),
                RttHistogram::new).add(r.micros()));
        u.served().ifPresent(s -> {
            if (ObserverRule.countsObservable(s.serverName(), rec.key(), s.agent(), state)) {
                servers.change(WhatIfStores.serverKey(rec.key(), day), ServerTraffic::bounded).add(s.entry());
            }
        });
    }

    /** Deletes the days before {@code oldestKept} from both stores. */
    private void sweep(long oldestKept) {
        sweep(servers, oldestKept);
        sweep(rtts, oldestKept);
    }

    private static <V> void sweep(WriteBehind<V> store, long oldestKept) {
        store.flush();
        List<String> old = new ArrayList<>();
        try (KeyValueIterator<String, V> it = store.store().all()) {
            it.forEachRemaining(kv -> {
                if (WhatIfStores.dayOfKey(kv.key) < oldestKept) {
                    old.add(kv.key);
                }
            });
        }
        old.forEach(store::remove);
    }

    /** True when {@code agent} has a heartbeat in the global agents store ("no" remembered for a second). */
    private boolean heartbeatOf(String agent) {
        long now = context.currentSystemTimeMs();
        Long until = absentUntil.get(agent);
        if (until != null && now < until) {
            return false;
        }
        if (GlobalText.get(agents, agent) != null) {
            absentUntil.remove(agent);
            return true;
        }
        absentUntil.put(agent, now + ABSENT_MS);
        return false;
    }
}
