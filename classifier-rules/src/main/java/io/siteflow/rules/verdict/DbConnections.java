package io.siteflow.rules.verdict;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Concurrent DB connections of one server towards one remote site.
 *
 * <p>Definition: a DB connection is a distinct flow (protocol, both addresses, both ports) classified DB. Its
 * observed lifetime is [earliest record {@code start}, latest record {@code end}] over the records added here.
 * For each epoch-aligned minute M = [m, m + 60 s), the count is the number of connections whose lifetime
 * overlaps M ({@code first < m + 60000 && last >= m}). The minutes considered run from the minute of the
 * earliest start to the minute of the latest end, clipped to the window when one is given; the summary is the
 * lower median (nearest rank) and the maximum of those counts. An idle pooled connection between two records
 * therefore still counts as open. Mergeable; not thread-safe.
 */
public final class DbConnections {
    static final long MINUTE = 60_000L;

    private final Map<String, long[]> lifetimes = new HashMap<>();

    /** Records that the connection {@code key} was seen from {@code start} to {@code end} (epoch ms). */
    public void add(String key, long start, long end) {
        long[] l = lifetimes.computeIfAbsent(key, k -> new long[] {start, end});
        l[0] = Math.min(l[0], start);
        l[1] = Math.max(l[1], end);
    }

    public void merge(DbConnections other) {
        other.lifetimes.forEach((k, v) -> add(k, v[0], v[1]));
    }

    /** Forgets every connection (for an aggregate whose connections are kept elsewhere, e.g. in a state store). */
    public void clear() {
        lifetimes.clear();
    }

    public int connections() {
        return lifetimes.size();
    }

    /** Connection key to {first, last}; a copy. */
    public Map<String, long[]> lifetimes() {
        Map<String, long[]> copy = new HashMap<>();
        lifetimes.forEach((k, v) -> copy.put(k, v.clone()));
        return copy;
    }

    /** Median and maximum per-minute counts, clipped to {@code window} when it is not null. */
    public DbConnectionSummary summary(Window window) {
        if (lifetimes.isEmpty()) {
            return DbConnectionSummary.NONE;
        }
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        TreeMap<Long, Long> delta = new TreeMap<>();
        for (long[] l : lifetimes.values()) {
            long first = Math.floorDiv(l[0], MINUTE);
            long last = Math.floorDiv(l[1], MINUTE);
            if (window != null) {
                first = Math.max(first, Math.floorDiv(window.start(), MINUTE));
                last = Math.min(last, Math.floorDiv(window.end() - 1, MINUTE));
            }
            if (first > last) {
                continue;
            }
            delta.merge(first, 1L, Long::sum);
            delta.merge(last + 1, -1L, Long::sum);
            lo = Math.min(lo, first);
            hi = Math.max(hi, last);
        }
        if (delta.isEmpty()) {
            return DbConnectionSummary.NONE;
        }
        return summarise(segments(delta, lo, hi));
    }

    /** Runs of minutes with a constant count: {count, minutes}. */
    private static List<long[]> segments(TreeMap<Long, Long> delta, long lo, long hi) {
        List<long[]> runs = new ArrayList<>();
        long count = 0;
        long at = lo;
        for (Map.Entry<Long, Long> e : delta.entrySet()) {
            if (e.getKey() > at) {
                runs.add(new long[] {count, Math.min(e.getKey(), hi + 1) - at});
                at = e.getKey();
            }
            count += e.getValue();
            if (at > hi) {
                break;
            }
        }
        return runs;
    }

    private static DbConnectionSummary summarise(List<long[]> runs) {
        long minutes = 0;
        long max = 0;
        for (long[] r : runs) {
            minutes += r[1];
            max = Math.max(max, r[0]);
        }
        runs.sort((a, b) -> Long.compare(a[0], b[0]));
        long rank = (minutes + 1) / 2;
        long seen = 0;
        for (long[] r : runs) {
            seen += r[1];
            if (seen >= rank) {
                return new DbConnectionSummary(r[0], max);
            }
        }
        return new DbConnectionSummary(max, max);
    }
}
