package io.siteflow.processor.query;

import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.VerdictFormatException;
import io.siteflow.rules.verdict.VerdictJson;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The latest window verdicts as the query side serves them: each stored verdict JSON text is parsed once and its
 * immutable {@link Verdict} kept, keyed by the text itself, so a dashboard that polls the latest verdicts does not
 * parse them on every request. A changed verdict is a new text, hence a new entry. Least recently used entries
 * are dropped beyond {@code capacity} entries or {@code maxChars} characters of kept text (a verdict lists every
 * remote address, so its size has no fixed bound). Thread-safe.
 */
final class VerdictCache {
    private final Map<String, Verdict> byJson = new LinkedHashMap<>(64, 0.75f, true);
    private final int capacity;
    private final long maxChars;
    private long chars;

    VerdictCache(int capacity, long maxChars) {
        this.capacity = capacity;
        this.maxChars = maxChars;
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
            if (byJson.put(json, v) == null) {
                chars += json.length();
            }
            Iterator<String> eldest = byJson.keySet().iterator();
            while ((byJson.size() > capacity || chars > maxChars) && eldest.hasNext()) {
                chars -= eldest.next().length();
                eldest.remove();
            }
        }
        return v;
    }

    /** Entries kept now (tests). */
    int size() {
        synchronized (byJson) {
            return byJson.size();
        }
    }

    /** The verdict of a stored JSON text, parsed now and not kept (history ranges would only churn the cache). */
    static Verdict parse(String json) {
        try {
            return VerdictJson.parse(json);
        } catch (VerdictFormatException e) {
            throw new IllegalStateException("verdict store: " + e.getMessage(), e);
        }
    }
}
