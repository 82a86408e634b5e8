package io.siteflow.processor.topology.store;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Store-key texts by the value they are made of, each built once: a record's key value (a few fields, cheap to
 * hash and compare) finds the text, one instance per key, so a lookup in {@link WriteBehind} by that text
 * neither builds nor hashes a string per record. Holds at most {@code max} texts; beyond that it starts
 * again (texts of keys no longer used go). Not thread-safe (one per task).
 *
 * @param <K> the key value type; needs value {@code equals} and {@code hashCode} (a record)
 */
public final class KeyTexts<K> {
    static final int MAX = 100_000;
    private final Function<? super K, String> build;
    private final int max;
    private final Map<K, String> texts = new HashMap<>();

    /** @param build the text of a key value (the store's key format) */
    public KeyTexts(Function<? super K, String> build) {
        this(build, MAX);
    }

    KeyTexts(Function<? super K, String> build, int max) {
        this.build = build;
        this.max = max;
    }

    /** The text of {@code key}: the instance built the first time, or a new one. */
    public String of(K key) {
        String t = texts.get(key);
        if (t == null) {
            if (texts.size() >= max) {
                texts.clear();
            }
            t = build.apply(key);
            texts.put(key, t);
        }
        return t;
    }
}
