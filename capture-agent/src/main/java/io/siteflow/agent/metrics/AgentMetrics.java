package io.siteflow.agent.metrics;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.siteflow.agent.capture.SourceCounters;
import io.siteflow.agent.decode.DecodeStatus;
import io.siteflow.agent.decode.MalformedReason;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * The agent's Micrometer meters and, when a port is given, a Prometheus endpoint at
 * {@code http://127.0.0.1:PORT/metrics}. Meters read the capture thread's counters (values may lag by a
 * packet). Close to stop the endpoint.
 */
public final class AgentMetrics implements AutoCloseable {
    private final PrometheusMeterRegistry registry;
    private final HttpServer server;
    /** Micrometer's function meters hold their objects weakly: these keep them alive as long as the meters. */
    private final List<Object> measured;

    private AgentMetrics(PrometheusMeterRegistry registry, HttpServer server, List<Object> measured) {
        this.registry = registry;
        this.server = server;
        this.measured = measured;
    }

    /**
     * Registers the meters of a capture and serves them when {@code port} is not null (0 picks a free port), on
     * {@code bind} (an IP literal, {@code 0.0.0.0} for every interface; null for loopback). Totals are untagged;
     * the {@code siteflow.agent.worker.*} meters give each worker's share, tagged {@code worker="0"} and up.
     */
    public static AgentMetrics start(Integer port, String bind, CaptureReadings readings, SourceCounters source) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        bind(registry, readings, source);
        bindWorkers(registry, readings, source);
        HttpServer server = null;
        if (port != null) {
            try {
                InetAddress address = bind == null ? InetAddress.getLoopbackAddress() : InetAddress.getByName(bind);
                server = HttpServer.create(new InetSocketAddress(address, port), 0);
            } catch (IOException e) {
                throw new UncheckedIOException("metrics: " + (bind == null ? "port " : bind + " port ") + port + ": "
                        + e.getMessage(), e);
            }
            server.createContext("/metrics", ex -> {
                byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
                ex.sendResponseHeaders(200, body.length);
                try (OutputStream os = ex.getResponseBody()) {
                    os.write(body);
                }
            });
            server.start();
        }
        return new AgentMetrics(registry, server, List.of(readings, source));
    }

    private static void bind(MeterRegistry r, CaptureReadings c, SourceCounters source) {
        for (DecodeStatus s : DecodeStatus.values()) {
            FunctionCounter.builder("siteflow.agent.packets", c, x -> x.counters().status(s))
                    .tag("result", s.name().toLowerCase(Locale.ROOT)).description("packets by decode result")
                    .register(r);
        }
        for (MalformedReason m : MalformedReason.values()) {
            if (m != MalformedReason.NONE) {
                FunctionCounter.builder("siteflow.agent.malformed", c, x -> x.counters().reason(m))
                        .tag("reason", m.name().toLowerCase(Locale.ROOT)).register(r);
            }
        }
        FunctionCounter.builder("siteflow.agent.filtered", c, x -> x.counters().filteredOutCount())
                .description("IP packets outside the -F filter").register(r);
        FunctionCounter.builder("siteflow.agent.kept", c, x -> x.counters().keptCount()).register(r);
        FunctionCounter.builder("siteflow.agent.kernel.drops", source, s -> s.stats().droppedKernel()).register(r);
        FunctionCounter.builder("siteflow.agent.interface.drops", source, s -> s.stats().droppedInterface())
                .register(r);
        FunctionCounter.builder("siteflow.agent.handoff.drops", c, CaptureReadings::agentDrops)
                .description("live packets dropped because aggregation fell behind the capture").register(r);
        Gauge.builder("siteflow.agent.flows.active", c, CaptureReadings::activeFlows).register(r);
        FunctionCounter.builder("siteflow.agent.flows", c, CaptureReadings::flowsCreated).register(r);
        FunctionCounter.builder("siteflow.agent.evictions", c, CaptureReadings::evictions).register(r);
    }

    private static void bindWorkers(MeterRegistry r, CaptureReadings c, SourceCounters source) {
        for (int i = 0; i < source.workers(); i++) {
            int w = i;
            String tag = Integer.toString(w);
            FunctionCounter.builder("siteflow.agent.worker.received", source, s -> s.workerStats().get(w).received())
                    .tag("worker", tag).description("packets this capture worker received").register(r);
            FunctionCounter.builder("siteflow.agent.worker.kernel.drops", source,
                    s -> s.workerStats().get(w).droppedKernel()).tag("worker", tag).register(r);
            FunctionCounter.builder("siteflow.agent.worker.interface.drops", source,
                    s -> s.workerStats().get(w).droppedInterface()).tag("worker", tag).register(r);
            FunctionCounter.builder("siteflow.agent.worker.handoff.drops", c, x -> x.agentDrops(w))
                    .tag("worker", tag).register(r);
        }
    }

    /** The registry, for more meters (publishers) and tests. */
    public MeterRegistry registry() {
        return registry;
    }

    /** Prometheus text of the current values. */
    public String scrape() {
        return registry.scrape();
    }

    /** The endpoint's port, or -1 without one. */
    public int port() {
        return server == null ? -1 : server.getAddress().getPort();
    }

    @Override
    public void close() {
        if (server != null) {
            server.stop(0);
        }
        registry.close();
    }
}
