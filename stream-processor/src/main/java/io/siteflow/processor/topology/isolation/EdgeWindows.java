package io.siteflow.processor.topology.isolation;

import io.siteflow.processor.topology.store.SegmentMarks;
import io.siteflow.rules.isolation.IsolationEdge;
import io.siteflow.rules.verdict.Window;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.WindowStore;

/**
 * One task's edges per tumbling window of event time (the topology's window size, aligned to the epoch, the window of
 * a record's {@code start}), in the {@link IsolationStores#EDGES} window store. A window is open until the stage's
 * stream time reaches its end + grace; then it closes and its edges are written out once. A record whose window has
 * closed (late) is still added (the store keeps every record, so a period's edges equal the offline accumulation),
 * and its window is written out again. Open windows are kept as live objects, rebuilt from the store at start, and
 * reach the store on {@link #flush()} (the task commits). Not thread-safe (one per task).
 */
public final class EdgeWindows {
    private final long windowMs;
    private final long graceMs;
    private final WindowStore<String, byte[]> store;
    /** Live windows by start, then edge key: the open ones and those changed since the last flush. */
    private final TreeMap<Long, Map<String, Slot>> live = new TreeMap<>();
    /** The start of the oldest window not closed yet. */
    private long openFrom = Long.MIN_VALUE;

    private static final class Slot {
        IsolationEdge edge;
        boolean dirty;

        Slot(IsolationEdge edge) {
            this.edge = edge;
        }
    }

    /** An edge of a window, as it is written out. */
    public record Out(String edgeKey, Window window, IsolationEdge edge) {
    }

    /** What {@link #add} did: the window's edge now, and whether the window had closed already. */
    public record Added(Out out, boolean late) {
    }

    public EdgeWindows(long windowMs, long graceMs, WindowStore<String, byte[]> store) {
        this.windowMs = windowMs;
        this.graceMs = graceMs;
        this.store = store;
    }

    /** Forgets the live windows and reads the open ones (at {@code streamTime}) from the store. */
    public void load(long streamTime) {
        live.clear();
        openFrom = firstOpen(streamTime);
        if (streamTime == Long.MIN_VALUE) {
            return;
        }
        try (KeyValueIterator<Windowed<String>, byte[]> it = store.fetchAll(Instant.ofEpochMilli(Math.max(0, openFrom)),
                Instant.ofEpochMilli(Long.MAX_VALUE))) {
            while (it.hasNext()) {
                KeyValue<Windowed<String>, byte[]> kv = it.next();
                if (!SegmentMarks.isMark(kv.key.key())) {
                    live.computeIfAbsent(kv.key.window().start(), s -> new TreeMap<>())
                            .put(kv.key.key(), new Slot(EdgeCodec.fromBytes(kv.value)));
                }
            }
        }
    }

    /** Adds a record's edge to its window (the window of its first-seen time). */
    public Added add(String edgeKey, IsolationEdge e) {
        Window w = Window.of(e.firstSeenMs(), windowMs);
        Map<String, Slot> window = live.computeIfAbsent(w.start(), s -> new TreeMap<>());
        Slot slot = window.get(edgeKey);
        if (slot == null) {
            byte[] stored = store.fetch(edgeKey, w.start());
            slot = new Slot(stored == null ? null : EdgeCodec.fromBytes(stored));
            window.put(edgeKey, slot);
        }
        slot.edge = slot.edge == null ? e : slot.edge.plus(e);
        slot.dirty = true;
        return new Added(new Out(edgeKey, w, slot.edge), w.start() < openFrom);
    }

    /**
     * The edges of every window that {@code streamTime} closes now (end + grace reached), oldest window first, each
     * window's edges by key. A window closes once.
     */
    public List<Out> closeDue(long streamTime) {
        long next = firstOpen(streamTime);
        if (next <= openFrom) {
            return List.of();
        }
        List<Out> out = new ArrayList<>();
        for (Map.Entry<Long, Map<String, Slot>> w : live.subMap(openFrom, true, next, false).entrySet()) {
            Window window = new Window(w.getKey(), w.getKey() + windowMs);
            w.getValue().forEach((key, slot) -> out.add(new Out(key, window, slot.edge)));
        }
        openFrom = next;
        return out;
    }

    /** The start of the oldest window {@code streamTime} leaves open (end + grace after it). */
    private long firstOpen(long streamTime) {
        if (streamTime == Long.MIN_VALUE) {
            return Long.MIN_VALUE;
        }
        return Window.of(streamTime - windowMs - graceMs, windowMs).start() + windowMs;
    }

    /** Writes the changed windows to the store and lets the closed ones go from memory. */
    public void flush() {
        Iterator<Map.Entry<Long, Map<String, Slot>>> it = live.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Long, Map<String, Slot>> w = it.next();
            for (Map.Entry<String, Slot> e : w.getValue().entrySet()) {
                if (e.getValue().dirty) {
                    store.put(e.getKey(), EdgeCodec.toBytes(e.getValue().edge), w.getKey());
                    e.getValue().dirty = false;
                }
            }
            if (w.getKey() < openFrom) {
                it.remove();
            }
        }
    }
}
