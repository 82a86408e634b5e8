package io.siteflow.agent.app;

import io.micrometer.core.instrument.FunctionCounter;
import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.capture.PacketSource;
import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.agent.decode.DecodeStatus;
import io.siteflow.agent.metrics.AgentMetrics;
import io.siteflow.agent.metrics.DecodeCounters;
import io.siteflow.agent.pipeline.Pipeline;
import io.siteflow.agent.publish.kafka.HeartbeatPublisher;
import io.siteflow.agent.publish.kafka.KafkaFlowSink;
import io.siteflow.agent.publish.kafka.PublishStats;
import io.siteflow.model.wire.Heartbeat;
import io.micrometer.core.instrument.FunctionCounter;

/** Starts the heartbeats (every 10 s to {@code siteflow.agents}) and the publisher's meters when Kafka is on. */
final class Heartbeats {
    private Heartbeats() {
    }

    static AutoCloseable start(KafkaFlowSink kafka, CaptureOptions o, PacketSource source, Pipeline pipeline,
            AgentMetrics metrics) {
        if (kafka == null) {
            return () -> { };
        }
        FunctionCounter.builder("siteflow.agent.kafka.sent", kafka, k -> k.stats().sent()).register(metrics.registry());
        FunctionCounter.builder("siteflow.agent.kafka.spooled", kafka, k -> k.stats().spooled())
                .register(metrics.registry());
        FunctionCounter.builder("siteflow.agent.kafka.dropped", kafka, k -> k.stats().dropped())
                .register(metrics.registry());
        return HeartbeatPublisher.on(kafka, HeartbeatPublisher.DEFAULT_INTERVAL, () -> {
            CaptureStats s = source.stats();
            DecodeCounters c = pipeline.counters();
            PublishStats p = kafka.stats();
            return new Heartbeat(o.agent(), source.name(), System.currentTimeMillis(), s.received(),
                    s.droppedKernel(), s.droppedInterface(), c.status(DecodeStatus.MALFORMED), p.sent(),
                    p.spoolRecords(), p.dropped());
        });
    }
}
