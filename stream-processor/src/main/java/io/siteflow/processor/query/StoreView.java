package io.siteflow.processor.query;

import io.siteflow.processor.topology.Alert;
import io.siteflow.rules.verdict.PairAggregate;
import io.siteflow.rules.verdict.PairAggregateJson;
import io.siteflow.rules.verdict.SitePairRtts;
import io.siteflow.rules.verdict.VerdictFormatException;
import io.siteflow.rules.whatif.ServerTraffic;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

/**
 * What one processor instance holds in its local state stores, in transport-friendly form (JSON text, records).
 * {@link StreamsQueries} combines the views of all instances: its own through {@link LocalStoreView}, the
 * others' through an {@link InstanceClient} (the HTTP side provides one that calls the owner's internal API,
 * which answers from its {@code LocalStoreView}). Implementations are thread-safe; none returns null.
 */
public interface StoreView {
    /** The {@code partition} that reads every task held here (a single instance, where all tasks are local). */
    int ANY_PARTITION = -1;

    /**
     * The cumulative aggregate ({@code PairAggregateJson}) of a pair {@code server|remoteSite}, if held here,
     * read from the task of {@code partition} ({@link #ANY_PARTITION}: from any task held here).
     *
     * @throws org.apache.kafka.streams.errors.InvalidStateStoreException (local view) while the task of
     *         {@code partition} is not running here (restoring, moved away, rebalancing): empty would be a wrong
     *         answer then
     */
    Optional<String> cumulative(String pairKey, int partition);

    /**
     * The cumulative aggregate of a pair, if held here: {@link #cumulative} read. The local view answers with
     * the stored object, without a JSON round trip.
     *
     * @throws IllegalStateException when the text is not an aggregate
     */
    default Optional<PairAggregate> cumulativeAggregate(String pairKey, int partition) {
        return cumulative(pairKey, partition).map(json -> {
            try {
                return PairAggregateJson.parse(json.getBytes(StandardCharsets.UTF_8));
            } catch (VerdictFormatException e) {
                throw new IllegalStateException("cumulative store: " + e.getMessage(), e);
            }
        });
    }

    /**
     * True when the observer of this server last reported drops above 0.1% (false when unknown here), read from
     * the task of {@code partition} as {@link #cumulative} is.
     */
    boolean observerDrops(String server, int partition);

    /**
     * What {@link #aggregates} reads for one server (or database): the aggregates {@code keys} from the task of
     * {@code partition} and, with {@code drops}, whether the observer of {@code server} reports drops.
     */
    record Ask(String server, int partition, List<String> keys, boolean drops) {
        public Ask {
            keys = List.copyOf(keys);
        }
    }

    /**
     * What {@link #aggregates} answers to one {@link Ask}: the aggregates held here (a key not held is absent) and
     * the drops; or, when the task of its partition does not run here now, why ({@code unavailable}; then
     * {@code aggregates} is empty).
     */
    record Answer(String server, Map<String, PairAggregate> aggregates, boolean drops, Optional<String> unavailable) {
        public Answer {
            aggregates = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(aggregates));
        }

        /** The task that holds {@code server} does not run here now, for the reason given. */
        public static Answer unavailable(String server, String why) {
            return new Answer(server, Map.of(), false, Optional.of(why));
        }
    }

    /**
     * {@link #cumulativeAggregate} and {@link #observerDrops} for many servers at once, in the order asked: what
     * another instance answers in one request, where reading pair by pair takes two per server. A task that does
     * not run here ({@link InvalidStateStoreException}) is that server's {@link Answer#unavailable}, not a failure of
     * the others.
     */
    default List<Answer> aggregates(List<Ask> asks) {
        List<Answer> out = new ArrayList<>(asks.size());
        for (Ask a : asks) {
            try {
                out.add(answer(a));
            } catch (InvalidStateStoreException e) {
                out.add(Answer.unavailable(a.server(), "state stores not queryable yet: " + e.getMessage()));
            }
        }
        return out;
    }

    /**
     * One {@link Ask} read here: the drops first, then each key.
     *
     * @throws InvalidStateStoreException (local view) while the task of the ask's partition is not running here
     */
    default Answer answer(Ask a) {
        boolean drops = a.drops() && observerDrops(a.server(), a.partition());
        Map<String, PairAggregate> held = new LinkedHashMap<>();
        for (String key : a.keys()) {
            cumulativeAggregate(key, a.partition()).ifPresent(agg -> held.put(key, agg));
        }
        return new Answer(a.server(), held, drops, Optional.empty());
    }

    /** The last closed-window verdict JSON of every pair held here. */
    List<String> latestWindows();

    /** Closed-window verdict JSON held here whose window starts in {@code [fromMs, toMs)}. */
    List<String> windows(long fromMs, long toMs);

    /** The newest alerts held here, newest first, at most {@code limit}. */
    List<Alert> alerts(int limit);

    /**
     * The isolation edges held here of the windows that start in {@code [fromMs, toMs)}, one per edge and window,
     * oldest window first.
     *
     * @throws org.apache.kafka.streams.errors.InvalidStateStoreException (local view) while the stores are not
     *         queryable
     */
    List<io.siteflow.rules.isolation.IsolationEdge> isolationEdges(long fromMs, long toMs);

    /** The handshake RTT entries held here ({@code address|peerSite}), one per key and task. */
    List<io.siteflow.rules.isolation.HostRtt> isolationRtts();

    /**
     * The what-if inputs of the server at {@code address} held here: its days in the task of {@code partition}
     * ({@link #ANY_PARTITION}: any task held here) merged into one bounded {@link ServerTraffic}; empty when none.
     *
     * @throws org.apache.kafka.streams.errors.InvalidStateStoreException (local view) while that task is not
     *         running here
     */
    Optional<ServerTraffic> whatIfTraffic(String address, int partition);

    /** The site-pair RTTs of the what-if held here: every day of every task held here, merged per site pair. */
    SitePairRtts whatIfRtts();

    /** When the {@code NEW_PEER} baseline of each task held here started (event time, epoch ms). */
    List<Long> baselineStarts();

    /** Talker rows of the servers held here; see {@link SiteflowQueries#talkers}. */
    List<TalkerRow> talkers(boolean ports, String category, int limit);
}
