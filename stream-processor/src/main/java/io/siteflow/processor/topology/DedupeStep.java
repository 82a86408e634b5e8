package io.siteflow.processor.topology;

import io.siteflow.processor.topology.store.CommitHook;
import io.siteflow.processor.topology.store.SeenIds;
import io.siteflow.processor.topology.store.SeenRuns;
import io.siteflow.processor.topology.store.SegmentMarks;
import io.siteflow.processor.topology.store.WriteBehind;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The dedupe step of {@link IngestStep}: drops a record whose {@code id} was seen before, so a record re-sent after an agent outage, a spool replay or a
 * restart counts once. All records of one agent and server share a key and so a partition: a re-sent record meets
 * its first copy in the same task. Two ways, by the id's form:
 * <ul>
 *   <li>the agent's ids, {@code <run>-<counter>}: one bit per counter ({@link SeenRuns}, written on commit);</li>
 *   <li>any other id: a re-sent record is the same record, same id and same event time ({@code start}), so one
 *   point lookup (id, time) in a window store finds its first copy; the store's segments expire after the
 *   dedupe retention. {@link SeenIds} spares the store read for ids that are certainly new; the newest event
 *   time put is kept in the meta store (written on commit) so that a restarted task knows which times its
 *   filter covers.</li>
 * </ul>
 * An id is remembered for at least the dedupe retention (agent ids: until every counter near it is older).
 * Not thread-safe (one per task); build a new one when the task is initialised again.
 */
final class DedupeStep {
    static final String NEWEST = "newest-id-time";
    /** Agent ids with event times up to this may be in the window store (put by a version before seen-runs). */
    static final String AGENT_IDS_UNTIL = "agent-ids-in-window-store-until";
    private final PipelineMetrics metrics;
    private final WindowStore<String, Long> seen;
    private final WriteBehind<Long> meta;
    private final SeenIds filter;
    private final SeenRuns runs;
    private Long agentIdsUntil;

    /** The step over the stores {@link StateStores#DEDUPE_STORES} of the processor of {@code context}. */
    DedupeStep(ProcessorContext<?, ?> context, PipelineMetrics metrics, long retentionMs) {
        this.metrics = metrics;
        this.seen = context.getStateStore(TopologySpec.DEDUPE_STORE);
        SegmentMarks.keep(context, seen, 0L);
        KeyValueStore<String, Long> metaStore = context.getStateStore(TopologySpec.DEDUPE_META_STORE);
        this.meta = new WriteBehind<>(metaStore);
        Long newest = meta.get(NEWEST);
        this.filter = new SeenIds(newest == null ? Long.MIN_VALUE : newest);
        this.runs = new SeenRuns(context.getStateStore(TopologySpec.DEDUPE_RUNS_STORE), retentionMs);
        CommitHook hook = context.getStateStore(TopologySpec.DEDUPE_COMMIT_HOOK);
        hook.onCommit(this::flush, this::discard);
    }

    /** True the first time a record {@code id} with event time {@code t} comes; a repeat is counted. */
    boolean firstTime(String id, long t) {
        int dash = id.lastIndexOf('-');
        long counter = SeenRuns.counter(id, dash);
        if (counter >= 0) {
            if (runs.firstTime(id, dash, counter, t) && !inWindowStore(id, t)) {
                return true;
            }
            metrics.duplicates.increment();
            return false;
        }
        if (!filter.certainlyNew(id, t) && seen.fetch(id, t) != null) {
            metrics.duplicates.increment();
            return false;
        }
        seen.put(id, t, t);
        filter.add(id, t);
        return true;
    }

    /**
     * True when an agent id is in the window store: only possible for event times up to the newest one that store
     * held when this task first ran with {@link SeenRuns} (an earlier version put every id there), so a record
     * sent before an upgrade and re-sent after it still counts once. Fixed at the task's first record.
     */
    private boolean inWindowStore(String id, long t) {
        if (agentIdsUntil == null) {
            agentIdsUntil = meta.store().get(AGENT_IDS_UNTIL);
            if (agentIdsUntil == null) {
                Long newest = meta.store().get(NEWEST);
                agentIdsUntil = newest == null ? Long.MIN_VALUE : newest;
                meta.put(AGENT_IDS_UNTIL, agentIdsUntil);
            }
        }
        return t <= agentIdsUntil && seen.fetch(id, t) != null;
    }

    private void flush() {
        Long stored = meta.get(NEWEST);
        if (stored == null || stored < filter.newest()) {
            meta.put(NEWEST, filter.newest());
        }
        meta.flush();
        runs.flush();
    }

    private void discard() {
        meta.discard();
        runs.discard();
        agentIdsUntil = null;
    }
}
