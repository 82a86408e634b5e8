package io.siteflow.processor.query;

import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.VerdictFormatException;
import io.siteflow.rules.verdict.VerdictJson;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Window verdicts as the query side serves them: each stored verdict JSON text is parsed once and its immutable
 * {@link Verdict} kept, keyed by the text itself, so a dashboard that polls the same verdicts does not parse them
 * on every request. A changed verdict is a new text, hence a new entry. Least recently used entries beyond
 * {@code capacity} are dropped. Thread-safe.
 */
final class VerdictCache {
    private final Map<String, Verdict> byJson;

    VerdictCache(int capacity) {
        this.byJson = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Verdict> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * The verdict of a stored JSON text.
     *
     * @throws IllegalStateException when the text is not a verdict
     */
    Verdict verdict(String json) {
        synchronized (byJson) {
            Verdict v = byJson.get(json);
            if (v != null) {
                return v;
            }
        }
        Verdict v = parse(json);
        synchronized (byJson) {
            byJson.put(json, v);
        }
        return v;
    }

    private static Verdict parse(String json) {
        try {
            return VerdictJson.parse(json);
        } catch (VerdictFormatException e) {
            throw new IllegalStateException("verdict store: " + e.getMessage(), e);
        }
    }
}
