package io.siteflow.processor.http;

import com.fasterxml.jackson.annotation.JsonFormat;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last hour of each link's bandwidth for {@code GET /api/links/history}, so that the dashboard's
 * bandwidth-over-time chart is not empty when a page opens: every {@link #INTERVAL_MS} the links'
 * 10 s rates ({@link LinkView#aToBBps()}, {@link LinkView#bToABps()}) are sampled and kept for {@link #SPAN_MS}.
 * Held in memory by the instance that answers (it starts empty with the instance). A sample the queries cannot
 * give (stores not queryable yet, an instance not answering) is a gap in the history, logged once per kind of
 * failure, never a zero. Thread-safe.
 */
final class LinkRateHistory implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LinkRateHistory.class);
    /** How often the links are sampled, ms. */
    static final long INTERVAL_MS = 10_000;
    /** How much history is kept, ms. */
    static final long SPAN_MS = 3_600_000;

    /** One sample: epoch ms, bytes/s from A to B, bytes/s from B to A; in JSON {@code [t, aToBBps, bToABps]}. */
    @JsonFormat(shape = JsonFormat.Shape.ARRAY)
    record Point(long t, double aToBBps, double bToABps) {
    }

    /** A link's samples, oldest first. */
    record Series(String siteA, String siteB, List<Point> points) {
    }

    private final Supplier<List<LinkView>> links;
    private final LongSupplier clock;
    private final Map<String, Deque<Point>> samples = new TreeMap<>();
    private ScheduledExecutorService timer;
    private String lastFailure = "";

    /** @param links the links now (the same as {@code /api/links}); called on the sampling thread */
    LinkRateHistory(Supplier<List<LinkView>> links, LongSupplier clock) {
        this.links = Objects.requireNonNull(links, "links");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Samples every {@link #INTERVAL_MS} on a daemon thread until {@link #close()}: the first one now, on the
     * calling thread, when {@code readyNow} (so that a page opened right away has a point), else on that thread.
     */
    synchronized LinkRateHistory start(boolean readyNow) {
        if (readyNow) {
            sample();
        }
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "siteflow-link-history");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::sample, readyNow ? INTERVAL_MS : 0, INTERVAL_MS, TimeUnit.MILLISECONDS);
        return this;
    }

    /** Records the links' rates at the clock's time and forgets samples older than {@link #SPAN_MS}. */
    void sample() {
        List<LinkView> now;
        try {
            now = links.get();
        } catch (RuntimeException e) {
            String kind = e.getClass().getSimpleName();
            if (!kind.equals(lastFailure)) {
                LOG.info("api: link history: no sample ({}); trying again every {} s", e.getMessage(), INTERVAL_MS / 1000);
                lastFailure = kind;
            }
            return;
        }
        lastFailure = "";
        long t = clock.getAsLong();
        synchronized (samples) {
            for (LinkView l : now) {
                samples.computeIfAbsent(l.siteA() + "\u0000" + l.siteB(), k -> new ArrayDeque<>())
                        .addLast(new Point(t, l.aToBBps(), l.bToABps()));
            }
            samples.values().forEach(s -> {
                while (!s.isEmpty() && s.peekFirst().t() < t - SPAN_MS) {
                    s.removeFirst();
                }
            });
            samples.values().removeIf(Deque::isEmpty);
        }
    }

    /** Every link sampled in the last hour, by site pair, its samples oldest first. */
    List<Series> history() {
        List<Series> out = new ArrayList<>();
        synchronized (samples) {
            samples.forEach((k, s) -> {
                String[] ab = k.split("\u0000", 2);
                out.add(new Series(ab[0], ab[1], List.copyOf(s)));
            });
        }
        return out;
    }

    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
