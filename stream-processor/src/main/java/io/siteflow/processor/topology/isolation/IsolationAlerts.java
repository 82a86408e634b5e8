package io.siteflow.processor.topology.isolation;

import io.siteflow.processor.topology.store.WriteBehind;
import io.siteflow.rules.isolation.Decision;
import io.siteflow.rules.isolation.IsolationEdge;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * The {@code ISOLATION} alert rule, per edge (key = the edge key), in event time: the first violating record of an
 * edge raises one at its start; while the edge keeps violating, a violating record at least {@code repeatMs} after
 * the last alert raises it again, its message ending "(repeated: still so since the alert of T)" as the audit's
 * alerts do; once the stage's stream time is {@code repeatMs} past the end of the edge's last violating window,
 * a {@code CLEARED} alert (same key) says so, at that time. Allowed traffic, and traffic decided without a policy
 * (the empty policy of a model without {@code isolation:}), raise none. The state of each edge in an alert state,
 * {@code [time of the last alert, end of the last violating window]}, is kept in the meta store under
 * {@code alert|EDGE} (written on commit), so a restart neither forgets nor repeats an alert. Not thread-safe (one
 * per task).
 */
public final class IsolationAlerts {
    /** One alert: {@code ISOLATION} or {@code CLEARED}. */
    public record Event(String type, String key, long timeMs, String message) {
    }

    private final long repeatMs;
    private final WriteBehind<long[]> meta;
    /** The edges in an alert state, by key: [last alert, end of the last violating window]. */
    private final TreeMap<String, long[]> states = new TreeMap<>();
    /** No edge clears before this stream time. */
    private long nextDue = Long.MAX_VALUE;

    public IsolationAlerts(long repeatMs, WriteBehind<long[]> meta) {
        this.repeatMs = repeatMs;
        this.meta = meta;
    }

    /** Reads the edges in an alert state from the meta store (at start, after a flush). */
    public void load() {
        states.clear();
        nextDue = Long.MAX_VALUE;
        try (KeyValueIterator<String, long[]> it = meta.store().prefixScan(IsolationStores.ALERT_PREFIX,
                new StringSerializer())) {
            while (it.hasNext()) {
                KeyValue<String, long[]> kv = it.next();
                states.put(kv.key.substring(IsolationStores.ALERT_PREFIX.length()), kv.value.clone());
                nextDue = Math.min(nextDue, kv.value[1] + repeatMs);
            }
        }
    }

    /** The CLEARED alerts of the edges quiet for {@code repeatMs} at {@code streamTime}, by edge key. */
    public List<Event> quiet(long streamTime) {
        if (streamTime < nextDue) {
            return List.of();
        }
        List<Event> out = new ArrayList<>();
        nextDue = Long.MAX_VALUE;
        Iterator<Map.Entry<String, long[]>> it = states.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, long[]> s = it.next();
            long due = s.getValue()[1] + repeatMs;
            if (due <= streamTime) {
                it.remove();
                meta.remove(IsolationStores.alertKey(s.getKey()));
                out.add(new Event("CLEARED", s.getKey(), due, "isolation: no violating traffic on " + s.getKey()
                        + " since " + Instant.ofEpochMilli(s.getValue()[1]) + " (" + Duration.ofMillis(repeatMs)
                        + " quiet)"));
            } else {
                nextDue = Math.min(nextDue, due);
            }
        }
        return out;
    }

    /**
     * The alert of one violating record of an edge (its edge {@code e}, in the window ending {@code windowEnd}):
     * raised when the edge is in no alert state, repeated when the last alert is {@code repeatMs} old, else none.
     */
    public Optional<Event> violation(String key, IsolationEdge e, long windowEnd) {
        long time = e.firstSeenMs();
        long[] s = states.get(key);
        if (s == null) {
            s = new long[] {time, windowEnd};
            states.put(key, s);
            meta.put(IsolationStores.alertKey(key), s.clone());
            nextDue = Math.min(nextDue, windowEnd + repeatMs);
            return Optional.of(new Event("ISOLATION", key, time, message(e)));
        }
        boolean changed = false;
        if (windowEnd > s[1]) {
            s[1] = windowEnd;
            changed = true;
        }
        Optional<Event> out = Optional.empty();
        if (time >= s[0] + repeatMs) {
            out = Optional.of(new Event("ISOLATION", key, time, message(e) + " (repeated: still so since the alert of "
                    + Instant.ofEpochMilli(s[0]) + ")"));
            s[0] = time;
            changed = true;
        }
        if (changed) {
            meta.put(IsolationStores.alertKey(key), s.clone());
        }
        return out;
    }

    /** {@code isolation: 10.2.0.20 (region2: soa) -> 10.1.0.10:1521/6 (region1: db), JMS t3: denied by no-t3-to-db}. */
    static String message(IsolationEdge e) {
        String why = e.decision() == Decision.DENIED ? "denied by " + e.rule() : "no rule allows it (UNLISTED)";
        return "isolation: " + e.client() + " (" + end(e.clientSite(), e.fromGroups()) + ") -> " + e.server() + ":"
                + e.serverPort() + "/" + e.proto() + " (" + end(e.serverSite(), e.toGroups()) + "), "
                + e.category().name() + " " + e.l7() + ": " + why;
    }

    private static String end(String site, List<String> groups) {
        return groups.isEmpty() ? site : site + ": " + String.join(", ", groups);
    }
}
