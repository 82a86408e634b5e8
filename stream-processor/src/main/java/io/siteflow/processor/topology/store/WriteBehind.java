package io.siteflow.processor.topology.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * One task's view of a key-value store whose values it alone writes: values are read through once and kept as
 * live objects, changed in memory, and written back by {@link #flush()} when the task commits
 * ({@link CommitHook}), so a key updated by many records in one commit interval costs one serialisation and one
 * changelog record. The store must not be cached (a write at commit goes straight to its changelog, inside the
 * transaction). Live objects beyond {@value #MAX_LIVE} (or the count given) are dropped after a flush (read again
 * when needed), which bounds the memory. Not thread-safe (one per task); build a new one when the task is initialised again.
 *
 * @param <V> the value type; values are mutable objects changed in place and marked with {@link #put}
 */
public final class WriteBehind<V> {
    static final int MAX_LIVE = 100_000;
    private final KeyValueStore<String, V> store;
    private final int maxLive;
    /** Live values by key (a slot with a null value: the store has none), one hash lookup per call. */
    private final Map<String, Slot<V>> live = new HashMap<>();
    /** Slots changed since the last flush, in the order they were first changed; removed ones are skipped. */
    private final List<Slot<V>> dirty = new ArrayList<>();

    /** A key's live value and whether the store still lacks it. */
    private static final class Slot<V> {
        final String key;
        V value;
        boolean dirty;

        Slot(String key, V value) {
            this.key = key;
            this.value = value;
        }
    }

    public WriteBehind(KeyValueStore<String, V> store) {
        this(store, MAX_LIVE);
    }

    /** @param maxLive how many live objects to keep after a flush before dropping them all */
    public WriteBehind(KeyValueStore<String, V> store, int maxLive) {
        this.store = store;
        this.maxLive = maxLive;
    }

    /** The value at {@code key}, live or read from the store; null when there is none. */
    public V get(String key) {
        return slot(key).value;
    }

    /**
     * The live value at {@code key} to change in place, {@code absent}'s new one when there is none; marked as
     * changed either way (the store has it after the next flush). One hash lookup: the same as {@link #get}
     * followed by {@link #put} of the value.
     */
    public V change(String key, Supplier<? extends V> absent) {
        Slot<V> s = slot(key);
        if (s.value == null) {
            s.value = absent.get();
        }
        if (!s.dirty) {
            s.dirty = true;
            dirty.add(s);
        }
        return s.value;
    }

    /** Sets (or marks as changed) the value at {@code key}; the store has it after the next flush. */
    public void put(String key, V value) {
        Slot<V> s = live.get(key);
        if (s == null) {
            s = new Slot<>(key, value);
            live.put(key, s);
        }
        s.value = value;
        if (!s.dirty) {
            s.dirty = true;
            dirty.add(s);
        }
    }

    /** Removes the value at {@code key} from memory and from the store now; returns it (null when none). */
    public V remove(String key) {
        Slot<V> s = slot(key);
        live.remove(key);
        boolean pending = s.dirty; // a pending put, possibly of null: the store may still hold an older value
        s.dirty = false;
        if (s.value != null || pending) {
            store.delete(key);
        }
        return s.value;
    }

    /** Writes the changed values to the store. */
    public void flush() {
        for (Slot<V> s : dirty) {
            if (s.dirty) {
                store.put(s.key, s.value);
                s.dirty = false;
            }
        }
        dirty.clear();
        if (live.size() > maxLive) {
            live.clear();
        }
    }

    /** Forgets the values changed since the last flush (the task's transaction was aborted). */
    public void discard() {
        live.clear();
        dirty.clear();
    }

    /** The underlying store (for scans, after a {@link #flush()}). */
    public KeyValueStore<String, V> store() {
        return store;
    }

    private Slot<V> slot(String key) {
        Slot<V> s = live.get(key);
        if (s == null) {
            s = new Slot<>(key, store.get(key));
            live.put(key, s);
        }
        return s;
    }
}
