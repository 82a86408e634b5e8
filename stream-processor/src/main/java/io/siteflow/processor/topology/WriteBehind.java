package io.siteflow.processor.topology;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
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
final class WriteBehind<V> {
    static final int MAX_LIVE = 100_000;
    private final KeyValueStore<String, V> store;
    private final int maxLive;
    private final Map<String, V> live = new HashMap<>();
    private final Set<String> dirty = new LinkedHashSet<>();

    WriteBehind(KeyValueStore<String, V> store) {
        this(store, MAX_LIVE);
    }

    /** @param maxLive how many live objects to keep after a flush before dropping them all */
    WriteBehind(KeyValueStore<String, V> store, int maxLive) {
        this.store = store;
        this.maxLive = maxLive;
    }

    /** The value at {@code key}, live or read from the store; null when there is none. */
    V get(String key) {
        V v = live.get(key);
        if (v == null && !live.containsKey(key)) {
            v = store.get(key);
            live.put(key, v);
        }
        return v;
    }

    /** Sets (or marks as changed) the value at {@code key}; the store has it after the next flush. */
    void put(String key, V value) {
        live.put(key, value);
        dirty.add(key);
    }

    /** Removes the value at {@code key} from memory and from the store now; returns it (null when none). */
    V remove(String key) {
        V v = get(key);
        live.remove(key);
        dirty.remove(key);
        if (v != null) {
            store.delete(key);
        }
        return v;
    }

    /** Writes the changed values to the store. */
    void flush() {
        for (String key : dirty) {
            store.put(key, live.get(key));
        }
        dirty.clear();
        if (live.size() > maxLive) {
            live.clear();
        }
    }

    /** Forgets the values changed since the last flush (the task's transaction was aborted). */
    void discard() {
        live.clear();
        dirty.clear();
    }

    /** The underlying store (for scans, after a {@link #flush()}). */
    KeyValueStore<String, V> store() {
        return store;
    }
}
