package io.siteflow.processor.query;

import io.siteflow.processor.topology.Alert;
import io.siteflow.rules.verdict.PairAggregate;
import io.siteflow.rules.verdict.PairAggregateJson;
import io.siteflow.rules.verdict.VerdictFormatException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

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

    /** The last closed-window verdict JSON of every pair held here. */
    List<String> latestWindows();

    /** Closed-window verdict JSON held here whose window starts in {@code [fromMs, toMs)}. */
    List<String> windows(long fromMs, long toMs);

    /** The newest alerts held here, newest first, at most {@code limit}. */
    List<Alert> alerts(int limit);

    /** When the {@code NEW_PEER} baseline of each task held here started (event time, epoch ms). */
    List<Long> baselineStarts();

    /** Talker rows of the servers held here; see {@link SiteflowQueries#talkers}. */
    List<TalkerRow> talkers(boolean ports, String category, int limit);
}
