package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;
import io.siteflow.processor.topology.store.AggregateStore;
import io.siteflow.processor.topology.store.PairKey;
import io.siteflow.processor.topology.store.WindowKey;
import io.siteflow.processor.topology.store.WriteBehind;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.verdict.PairAggregate;
import io.siteflow.rules.verdict.Window;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The aggregates of one task's audited pairs ({@link AggregateStore}): cumulative since start, and per tumbling
 * window of event time
 * (the window of a record's {@code start}, as in the offline audit) until the window closes, i.e. until stream
 * time reaches window end + grace. A record whose window has closed is late: it is added to the cumulative
 * aggregate only. Closed windows leave the open-window store; their verdicts go to the history (window store,
 * retention from the config) and to the latest-window store. An in-memory index of open windows by end time,
 * rebuilt from the store at start, keeps the close check cheap. Changes reach the stores on {@link #flush()}
 * (the task commits). Not thread-safe (one per task).
 */
final class PairWindows {
    private final long windowMs;
    private final long graceMs;
    /** Connection-store prefix of cumulative aggregates. */
    static final String CUMULATIVE = "C";
    /** Connection-store prefix of open-window aggregates. */
    static final String WINDOW = "W";
    private final WriteBehind<long[]> connections;
    private final AggregateStore open;
    private final AggregateStore cumulative;
    private final WindowStore<String, String> history;
    private final KeyValueStore<String, String> latest;
    /** Open windows by end time; their {@link WindowKey} texts, in text order (the order verdicts are emitted). */
    private final TreeMap<Long, TreeSet<String>> openByEnd = new TreeMap<>();

    /**
     * Each pair's latest open-window key text: most records fall in their pair's current window, so the text (and
     * its cached hash) is reused instead of built per record.
     */
    private final Map<PairKey, WindowText> current = new HashMap<>();

    private record WindowText(long start, String text) {
    }

    /** A window that closed: its pair, window and aggregate. */
    record Closed(PairKey pair, Window window, PairAggregate aggregate) {
    }

    PairWindows(TopologyConfig config, KeyValueStore<String, PairAggregate> open,
                KeyValueStore<String, PairAggregate> cumulative, KeyValueStore<String, long[]> connections,
                WindowStore<String, String> history, KeyValueStore<String, String> latest) {
        this.windowMs = config.window().toMillis();
        this.graceMs = config.grace().toMillis();
        this.connections = new WriteBehind<>(connections);
        this.open = new AggregateStore(WINDOW, open, this.connections);
        this.cumulative = new AggregateStore(CUMULATIVE, cumulative, this.connections);
        this.history = history;
        this.latest = latest;
        this.open.keys().forEach(this::index);
    }

    /**
     * Adds a record of the pair, with the remote end's address.
     *
     * @return false when the record's window had closed (the record is late and counted cumulatively only)
     */
    boolean add(PairKey pair, FlowRecord r, Classification c, String remoteAddress, long streamTime) {
        boolean connection = c.category() == Category.DB;
        cumulative.add(pair.encoded(), r, c, remoteAddress, connection);
        Window w = Window.of(r.start(), windowMs);
        if (w.end() + graceMs <= streamTime) {
            return false;
        }
        String key = windowText(pair, w.start());
        if (open.add(key, r, c, remoteAddress, connection)) {
            index(key); // a new window (the open ones in the store were indexed at start)
        }
        return true;
    }

    /**
     * Notes a flow exporter's record of the pair that another observer counts ({@link PairAggregate#compareExporter}),
     * in the cumulative aggregate and, unless its window has closed, in its window.
     */
    void compare(PairKey pair, FlowRecord r, long streamTime) {
        cumulative.compare(pair.encoded(), r);
        Window w = Window.of(r.start(), windowMs);
        if (w.end() + graceMs <= streamTime) {
            return;
        }
        String key = windowText(pair, w.start());
        if (open.compare(key, r)) {
            index(key);
        }
    }

    /**
     * Adds a record to a cumulative aggregate that has no windows (the site comparison's, under
     * {@link TopologySpec#dbSiteKey}), with its DB connection.
     */
    void addCumulative(String key, FlowRecord r, Classification c, String remoteAddress) {
        cumulative.add(key, r, c, remoteAddress, c.category() == Category.DB);
    }

    /** Removes and returns the windows that stream time has closed, oldest first. */
    List<Closed> closeDue(long streamTime) {
        if (openByEnd.isEmpty() || openByEnd.firstKey() + graceMs > streamTime) {
            return List.of(); // most records: nothing is due
        }
        List<Closed> out = new ArrayList<>();
        while (!openByEnd.isEmpty() && openByEnd.firstKey() + graceMs <= streamTime) {
            Map.Entry<Long, TreeSet<String>> e = openByEnd.pollFirstEntry();
            for (String key : e.getValue()) {
                PairAggregate agg = open.remove(key);
                if (agg != null) {
                    WindowKey k = WindowKey.decode(key);
                    out.add(new Closed(k.pair(), new Window(k.windowStart(), k.windowStart() + windowMs), agg));
                }
            }
        }
        return out;
    }

    /** Keeps a closed window's verdict JSON for reports. */
    void keep(Closed c, String verdictJson) {
        history.put(c.pair().encoded(), verdictJson, c.window().start());
        latest.put(c.pair().encoded(), verdictJson);
    }

    /** Writes the changed aggregates and connections to their stores (the task commits). */
    void flush() {
        cumulative.flush();
        open.flush();
        connections.flush();
    }

    /** Forgets the changes since the last flush. */
    void discard() {
        cumulative.discard();
        open.discard();
        connections.discard();
    }

    private String windowText(PairKey pair, long start) {
        WindowText t = current.get(pair);
        if (t == null || t.start() != start) {
            t = new WindowText(start, new WindowKey(pair, start).encode());
            current.put(pair, t);
        }
        return t.text();
    }

    private void index(String key) {
        openByEnd.computeIfAbsent(WindowKey.decode(key).windowStart() + windowMs, k -> new TreeSet<>()).add(key);
    }
}
