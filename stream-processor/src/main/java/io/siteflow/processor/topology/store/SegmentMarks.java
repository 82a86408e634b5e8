package io.siteflow.processor.topology.store;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Keeps a segment in each window store of a task, so that a clean restart resumes from the stores' offsets.
 *
 * <p>Under exactly-once with transactional state stores, Kafka Streams 4.4 reads each store's committed offset at
 * start; a segmented (window) store reads it from its segments, so a window store that was never written (no
 * segment: the dedupe store of a task whose records all carry agent ids, the alerts of a quiet task) has none.
 * When the task's directory holds anything else, Kafka Streams then takes the task for corrupted, wipes all its
 * stores and restores them from their changelogs' start ("State store seen-ids did not find checkpoint offsets
 * while stores are not empty"), at every restart. A store keeps at least one segment once written (segments
 * expire only when a newer put moves its time on), so one mark, put once into a store that holds nothing, is
 * enough: at event time 0, under {@link #KEY}, which no record id, pair key or alert key takes (they have no NUL
 * character). Readers skip it ({@link #isMark}). Put by a wall-clock punctuation right after the task starts
 * (a put needs a record context), then never again. Stateless.
 */
public final class SegmentMarks {
    /** The mark's key. */
    public static final String KEY = "\u0000keeps-a-segment";

    private SegmentMarks() {
    }

    /** True for the mark's key. */
    public static boolean isMark(String key) {
        return KEY.equals(key);
    }

    /** Puts {@code mark} at time 0 under {@link #KEY} into {@code store} when it holds nothing, once, soon. */
    public static <V> void keep(ProcessorContext<?, ?> context, WindowStore<String, V> store, V mark) {
        AtomicReference<Cancellable> once = new AtomicReference<>();
        once.set(context.schedule(Duration.ofMillis(1), PunctuationType.WALL_CLOCK_TIME, now -> {
            once.get().cancel();
            try (KeyValueIterator<?, V> it = store.all()) {
                if (it.hasNext()) {
                    return;
                }
            }
            store.put(KEY, mark, 0L);
        }));
    }
}
