package io.siteflow.processor.query;

import io.siteflow.processor.topology.Alert;
import io.siteflow.processor.topology.AlertJson;
import io.siteflow.processor.topology.ObserverDrops;
import io.siteflow.processor.topology.TalkerStats;
import io.siteflow.processor.topology.TopologySpec;
import io.siteflow.processor.topology.HeartbeatStep;
import io.siteflow.processor.topology.isolation.EdgeCodec;
import io.siteflow.processor.topology.isolation.IsolationStores;
import io.siteflow.rules.isolation.HostRtt;
import io.siteflow.rules.isolation.IsolationEdge;
import io.siteflow.processor.topology.store.SegmentMarks;
import io.siteflow.processor.topology.whatif.WhatIfStores;
import io.siteflow.rules.verdict.RttHistogram;
import io.siteflow.rules.verdict.SitePair;
import io.siteflow.rules.verdict.SitePairRtts;
import io.siteflow.rules.whatif.ServerTraffic;
import io.siteflow.rules.verdict.PairAggregate;
import io.siteflow.rules.verdict.PairAggregateJson;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/**
 * This instance's stores as a {@link StoreView}, plus the global stores every instance holds whole (site
 * model, heartbeats). Reads snapshots; thread-safe as the stores are.
 */
public final class LocalStoreView implements StoreView {
    private final StoreSource stores;
    private final Clock clock;

    /** @param clock the wall clock talker rates and ages are computed at */
    public LocalStoreView(StoreSource stores, Clock clock) {
        this.stores = stores;
        this.clock = clock;
    }

    @Override
    public Optional<String> cumulative(String pairKey, int partition) {
        return cumulativeAggregate(pairKey, partition).map(a -> new String(PairAggregateJson.toBytes(a), StandardCharsets.UTF_8));
    }

    @Override
    public Optional<PairAggregate> cumulativeAggregate(String pairKey, int partition) {
        PairAggregate a = this.<PairAggregate>task(TopologySpec.CUMULATIVE_STORE, partition).get(pairKey);
        if (a == null) {
            return Optional.empty();
        }
        String prefix = TopologySpec.cumulativeConnections(pairKey);
        try (KeyValueIterator<String, long[]> it = this.<long[]>task(TopologySpec.CONNECTION_STORE, partition)
                .prefixScan(prefix, new StringSerializer())) {
            it.forEachRemaining(kv -> a.dbConnections().add(kv.key.substring(prefix.length()), kv.value[0],
                    kv.value[1]));
        }
        return Optional.of(a);
    }

    @Override
    public boolean observerDrops(String server, int partition) {
        return ObserverDrops.aboveLimit(this.<String>task(TopologySpec.OBSERVER_STORE, partition).get(server),
                stores.<String>keyValue(TopologySpec.AGENTS_STORE)::get);
    }

    /** The store of the task of {@code partition}, or of every task held here for {@link #ANY_PARTITION}. */
    private <V> ReadOnlyKeyValueStore<String, V> task(String store, int partition) {
        return partition == ANY_PARTITION ? stores.keyValue(store) : stores.keyValue(store, partition);
    }

    @Override
    public List<String> latestWindows() {
        List<String> out = new ArrayList<>();
        try (KeyValueIterator<String, String> it = stores.<String>keyValue(TopologySpec.LATEST_STORE).all()) {
            it.forEachRemaining(kv -> out.add(kv.value));
        }
        return out;
    }

    @Override
    public List<String> windows(long fromMs, long toMs) {
        List<String> out = new ArrayList<>();
        if (toMs <= fromMs) {
            return out;
        }
        ReadOnlyWindowStore<String, String> h = stores.window(TopologySpec.HISTORY_STORE);
        try (KeyValueIterator<Windowed<String>, String> it = h.fetchAll(
                java.time.Instant.ofEpochMilli(fromMs), java.time.Instant.ofEpochMilli(toMs - 1))) {
            it.forEachRemaining(kv -> {
                if (!SegmentMarks.isMark(kv.key.key())) {
                    out.add(kv.value);
                }
            });
        }
        return out;
    }

    @Override
    public List<Alert> alerts(int limit) {
        List<Alert> all = new ArrayList<>();
        ReadOnlyWindowStore<String, String> s = stores.window(TopologySpec.ALERT_STORE);
        try (KeyValueIterator<Windowed<String>, String> it = s.all()) {
            it.forEachRemaining(kv -> {
                if (!SegmentMarks.isMark(kv.key.key())) {
                    all.add(AlertJson.parse(kv.value));
                }
            });
        }
        ReadOnlyWindowStore<String, byte[]> iso = stores.window(IsolationStores.ALERTS);
        try (KeyValueIterator<Windowed<String>, byte[]> it = iso.all()) {
            it.forEachRemaining(kv -> {
                if (!SegmentMarks.isMark(kv.key.key())) {
                    all.add(AlertJson.parse(new String(kv.value, StandardCharsets.UTF_8)));
                }
            });
        }
        all.sort(Comparator.comparingLong(Alert::timeMs).reversed().thenComparing(Alert::key));
        return all.subList(0, Math.min(Math.max(limit, 0), all.size()));
    }

    @Override
    public List<IsolationEdge> isolationEdges(long fromMs, long toMs) {
        List<IsolationEdge> out = new ArrayList<>();
        if (toMs <= fromMs) {
            return out;
        }
        ReadOnlyWindowStore<String, byte[]> s = stores.window(IsolationStores.EDGES);
        try (KeyValueIterator<Windowed<String>, byte[]> it = s.fetchAll(java.time.Instant.ofEpochMilli(Math.max(0, fromMs)),
                java.time.Instant.ofEpochMilli(toMs - 1))) {
            it.forEachRemaining(kv -> {
                if (!SegmentMarks.isMark(kv.key.key())) {
                    out.add(EdgeCodec.fromBytes(kv.value));
                }
            });
        }
        return out;
    }

    @Override
    public List<HostRtt> isolationRtts() {
        List<HostRtt> out = new ArrayList<>();
        try (KeyValueIterator<String, long[]> it = stores.<long[]>keyValue(IsolationStores.RTTS).all()) {
            it.forEachRemaining(kv -> {
                int bar = kv.key.lastIndexOf('|');
                out.add(new HostRtt(kv.key.substring(0, bar), kv.key.substring(bar + 1), kv.value[0], kv.value[1]));
            });
        }
        return out;
    }

    @Override
    public Optional<ServerTraffic> whatIfTraffic(String address, int partition) {
        ServerTraffic out = null;
        try (KeyValueIterator<String, ServerTraffic> it = this.<ServerTraffic>task(WhatIfStores.SERVERS, partition)
                .prefixScan(WhatIfStores.serverPrefix(address), new StringSerializer())) {
            while (it.hasNext()) {
                ServerTraffic day = it.next().value;
                if (out == null) {
                    out = day;
                } else {
                    out.merge(day);
                }
            }
        }
        return Optional.ofNullable(out);
    }

    @Override
    public SitePairRtts whatIfRtts() {
        SitePairRtts out = new SitePairRtts();
        try (KeyValueIterator<String, RttHistogram> it = stores.<RttHistogram>keyValue(WhatIfStores.RTTS).all()) {
            it.forEachRemaining(kv -> {
                String[] k = kv.key.split("\\|", -1);
                out.merge(SitePair.of(k[0], k[1]), kv.value);
            });
        }
        return out;
    }

    @Override
    public List<TalkerRow> talkers(boolean ports, String category, int limit) {
        List<KeyValue<String, TalkerStats>> rows = new ArrayList<>();
        try (KeyValueIterator<String, TalkerStats> it = stores.<TalkerStats>keyValue(TopologySpec.TALKER_STORE).all()) {
            it.forEachRemaining(rows::add);
        }
        return Talkers.rows(rows, ports, category, limit, clock.millis());
    }

    @Override
    public List<Long> baselineStarts() {
        List<Long> out = new ArrayList<>();
        try (KeyValueIterator<String, Long> it = stores.<Long>keyValue(TopologySpec.META_STORE)
                .prefixScan(TopologySpec.BASELINE_START_KEY, new StringSerializer())) {
            it.forEachRemaining(kv -> {
                if (kv.key.equals(TopologySpec.BASELINE_START_KEY)) {
                    out.add(kv.value);
                }
            });
        }
        return out;
    }

    /** The site-model YAML on {@code siteflow.sites}, or null before there is one. */
    public String sitesYaml() {
        return stores.<String>keyValue(TopologySpec.SITES_STORE).get(TopologySpec.SITES_KEY);
    }

    /** Every heartbeat JSON held in the global agents store, by agent id. */
    public List<String> heartbeats() {
        List<String> out = new ArrayList<>();
        try (KeyValueIterator<String, String> it = stores.<String>keyValue(TopologySpec.AGENTS_STORE).all()) {
            it.forEachRemaining(kv -> {
                if (!kv.key.startsWith(HeartbeatStep.GAP_PREFIX)) {
                    out.add(kv.value);
                }
            });
        }
        return out;
    }

    /** The agents' silences the global agents store recorded ({@link HeartbeatStep}), by agent id and start. */
    public List<Silence> silences() {
        List<Silence> out = new ArrayList<>();
        try (KeyValueIterator<String, String> it = stores.<String>keyValue(TopologySpec.AGENTS_STORE).all()) {
            it.forEachRemaining(kv -> {
                if (!kv.key.startsWith(HeartbeatStep.GAP_PREFIX)) {
                    return;
                }
                int bar = kv.key.lastIndexOf('|');
                out.add(new Silence(kv.key.substring(HeartbeatStep.GAP_PREFIX.length(), bar),
                        Long.parseLong(kv.key.substring(bar + 1)), Long.parseLong(kv.value)));
            });
        }
        return out;
    }

    /**
     * An agent silent from one heartbeat to the next, longer than {@link AgentStatus#SILENT_AFTER_MS}.
     *
     * @param fromMs its heartbeat before the silence (its own clock), epoch ms
     * @param toMs   its heartbeat after it
     */
    public record Silence(String agent, long fromMs, long toMs) {
    }
}
