package io.siteflow.agent.app;

import io.micrometer.core.instrument.FunctionCounter;
import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.capture.SourceCounters;
import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.agent.decode.DecodeStatus;
import io.siteflow.agent.export.ExportSource;
import io.siteflow.agent.metrics.AgentMetrics;
import io.siteflow.agent.metrics.CaptureReadings;
import io.siteflow.agent.metrics.DecodeCounters;
import io.siteflow.agent.publish.kafka.HeartbeatPublisher;
import io.siteflow.agent.publish.kafka.KafkaFlowSink;
import io.siteflow.agent.publish.kafka.PublishStats;
import io.siteflow.model.wire.Heartbeat;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the heartbeats (every 10 s to {@code siteflow.agents}, and one last when the run ends) and the publisher's
 * meters when Kafka is on. With {@code --workers N} each heartbeat also carries each worker's received and dropped
 * packets; a flow collector's ({@code siteflow collect}) carries its own counters ({@link Heartbeat.Export}).
 */
final class Heartbeats {
    private static final Logger LOG = LoggerFactory.getLogger(Heartbeats.class);

    private Heartbeats() {
    }

    static AutoCloseable start(KafkaFlowSink kafka, CaptureOptions o, SourceCounters source,
            CaptureReadings readings, AgentMetrics metrics) {
        if (kafka == null) {
            return () -> { };
        }
        FunctionCounter.builder("siteflow.agent.kafka.sent", kafka, k -> k.stats().sent()).register(metrics.registry());
        FunctionCounter.builder("siteflow.agent.kafka.spooled", kafka, k -> k.stats().spooled())
                .register(metrics.registry());
        FunctionCounter.builder("siteflow.agent.kafka.dropped", kafka, k -> k.stats().dropped())
                .register(metrics.registry());
        return lastOnClose(HeartbeatPublisher.on(kafka, HeartbeatPublisher.DEFAULT_INTERVAL, () -> heartbeat(o.agent(),
                source.name(), System.currentTimeMillis(), source.stats(), readings.counters(), kafka.stats(),
                workers(source.workerStats(), readings),
                source instanceof ExportSource e ? e.heartbeatCounters() : null)));
    }

    /**
     * Closing stops {@code publisher}'s periodic heartbeats, then sends one last heartbeat from the caller's thread
     * with the counters as they are then: closed after the source's run returned and before the sink's producer
     * closes, it carries the run's final capture and export counters (the last interval's losses included), and the
     * producer's close sends it. One that cannot be sent (Kafka unreachable) is lost, as any heartbeat.
     */
    static AutoCloseable lastOnClose(HeartbeatPublisher publisher) {
        return () -> {
            publisher.close();
            try {
                publisher.publish();
            } catch (RuntimeException e) {
                LOG.debug("last heartbeat not sent: {}", e.toString());
            }
        };
    }

    /** Each worker's packet counters for the heartbeat; empty for a capture with one worker. */
    static List<Heartbeat.Worker> workers(List<CaptureStats> stats, CaptureReadings readings) {
        if (stats.size() < 2) {
            return List.of();
        }
        List<Heartbeat.Worker> out = new ArrayList<>(stats.size());
        for (int w = 0; w < stats.size(); w++) {
            CaptureStats s = stats.get(w);
            out.add(new Heartbeat.Worker(s.received(), s.droppedKernel(), s.droppedInterface(),
                    readings.agentDrops(w)));
        }
        return out;
    }

    /**
     * The heartbeat of these counters: {@code spooled} is the records waiting in the spool now
     * ({@link PublishStats#spoolRecords()}), not the running total of records ever spooled (that is the metric
     * {@code siteflow.agent.kafka.spooled}); {@code export} is null for a capture agent.
     */
    static Heartbeat heartbeat(String agent, String iface, long timeMs, CaptureStats s, DecodeCounters c,
            PublishStats p, List<Heartbeat.Worker> workers, Heartbeat.Export export) {
        return new Heartbeat(agent, iface, timeMs, s.received(), s.droppedKernel(), s.droppedInterface(),
                c.status(DecodeStatus.MALFORMED), p.sent(), p.spoolRecords(), p.dropped(), workers, export);
    }
}
