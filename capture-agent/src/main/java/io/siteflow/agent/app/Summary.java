package io.siteflow.agent.app;

import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.capture.PacketSource;
import io.siteflow.agent.decode.DecodeStatus;
import io.siteflow.agent.metrics.DecodeCounters;
import io.siteflow.agent.pipeline.Pipeline;
import io.siteflow.agent.publish.kafka.KafkaFlowSink;
import io.siteflow.agent.publish.kafka.PublishStats;
import java.io.PrintWriter;

/** The capture statistics printed to standard error at the end of a capture. */
final class Summary {
    private Summary() {
    }

    static void print(PrintWriter err, PacketSource source, Pipeline pipeline, KafkaFlowSink kafka) {
        DecodeCounters c = pipeline.counters();
        CaptureStats stats = source.stats();
        err.printf("%s: %d packets received, %d dropped by kernel, %d dropped by interface, %d dropped by the agent%n",
                source.name(), Math.max(stats.received(), c.packets()), stats.droppedKernel(), stats.droppedInterface(),
                pipeline.agentDrops());
        if (source.workers() > 1) {
            for (int w = 0; w < source.workers(); w++) {
                CaptureStats s = source.workerStats().get(w);
                err.printf("  worker %d: %d packets received, %d dropped by kernel, %d dropped by interface, "
                        + "%d dropped by the agent%n", w, s.received(), s.droppedKernel(), s.droppedInterface(),
                        pipeline.agentDrops(w));
            }
        }
        err.printf("decoded: %d IP, %d not IP, %d malformed, %d on unsupported link types%n",
                c.status(DecodeStatus.IP), c.status(DecodeStatus.NOT_IP), c.status(DecodeStatus.MALFORMED),
                c.status(DecodeStatus.UNSUPPORTED_LINK));
        if (!c.malformedByReason().isEmpty()) {
            err.println("not decoded by reason: " + c.malformedByReason());
        }
        err.printf("kept %d IP packets (%d outside the -F filter); %d flows, %d evicted early%n", c.keptCount(),
                c.filteredOutCount(), pipeline.flowsCreated(), pipeline.evictions());
        if (kafka != null) {
            PublishStats p = kafka.stats();
            err.printf("kafka: %d records sent, %d spooled, %d replayed, %d dropped, %d rejected%n", p.sent(),
                    p.spooled(), p.replayed(), p.dropped(), p.rejected());
        }
        err.flush();
    }
}
