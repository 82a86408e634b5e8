package io.siteflow.processor.http;

import io.javalin.http.sse.SseClient;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Server-sent events for {@code /api/events}: on connect a client gets every view once; then, every
 * {@code intervalMs}, the views whose JSON changed since it last got them. Event name = view name
 * ({@code verdicts, latest, agents, alerts, talkers, links, rules}), data = the same JSON as the view's
 * endpoint, or, for a view that cannot answer, why ({@link ViewFailure#eventJson}), while the others go on. The
 * views are computed once per tick for all clients, on one daemon thread. Thread-safe.
 */
final class EventStream implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EventStream.class);

    private final Supplier<Map<String, String>> views;
    private final Map<SseClient, Map<String, String>> clients = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;

    /** @param views computes the current JSON of each view, in event order; called on the timer thread */
    EventStream(Supplier<Map<String, String>> views, long intervalMs) {
        this.views = Objects.requireNonNull(views, "views");
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "siteflow-sse");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::tick, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    }

    /** Registers a client (called on the request thread); it gets all views at the next moment the timer runs. */
    void connect(SseClient client) {
        client.keepAlive();
        client.onClose(() -> clients.remove(client));
        clients.put(client, new HashMap<>());
        timer.execute(() -> push(client, current()));
    }

    int clientCount() {
        return clients.size();
    }

    private void tick() {
        if (clients.isEmpty()) {
            return;
        }
        Map<String, String> now = current();
        clients.keySet().forEach(c -> push(c, now));
    }

    /**
     * The views now. The supplier answers for each view alone (a view that cannot answer is data saying why,
     * {@link ApiViews#all}); should it throw all the same (a bug), nothing is pushed this tick, so the pages keep
     * what they have, and the error is logged with its trace: the timer must not die.
     */
    private Map<String, String> current() {
        try {
            return views.get();
        } catch (RuntimeException e) {
            LOG.error("sse: views could not be computed", e);
            return Map.of();
        }
    }

    private void push(SseClient c, Map<String, String> now) {
        Map<String, String> sent = clients.get(c);
        if (sent == null) {
            return;
        }
        for (Map.Entry<String, String> view : now.entrySet()) {
            // a closed tab is seen when a send fails; sending on would log "SseClient has been terminated"
            if (c.terminated()) {
                clients.remove(c);
                return;
            }
            if (!view.getValue().equals(sent.get(view.getKey()))) {
                c.sendEvent(view.getKey(), view.getValue());
                sent.put(view.getKey(), view.getValue());
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        clients.keySet().forEach(SseClient::close);
        clients.clear();
    }
}
