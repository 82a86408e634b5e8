package io.siteflow.agent.app;

import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.capture.SourceCounters;
import io.siteflow.agent.decode.DecodeStatus;
import io.siteflow.agent.metrics.CaptureReadings;
import io.siteflow.agent.metrics.DecodeCounters;
import io.siteflow.agent.publish.kafka.KafkaFlowSink;
import io.siteflow.agent.publish.kafka.PublishStats;
import java.io.PrintWriter;
import java.util.List;

/** The capture statistics printed to standard error at the end of a capture, and the Kafka sink's outcome. */
final class Summary {
    private Summary() {
    }

    /** The summary; a source's own {@code lines} (a collector's) replace the packet counters when given. */
    static void print(PrintWriter err, SourceCounters source, CaptureReadings readings, List<String> lines) {
        if (!lines.isEmpty()) {
            lines.forEach(err::println);
            err.flush();
            return;
        }
        print(err, source, readings);
    }

    static void print(PrintWriter err, SourceCounters source, CaptureReadings readings) {
        DecodeCounters c = readings.counters();
        CaptureStats stats = source.stats();
        err.printf("%s: %d packets received, %d dropped by kernel, %d dropped by interface, %d dropped by the agent%n",
                source.name(), Math.max(stats.received(), c.packets()), stats.droppedKernel(), stats.droppedInterface(),
                readings.agentDrops());
        if (source.workers() > 1) {
            for (int w = 0; w < source.workers(); w++) {
                CaptureStats s = source.workerStats().get(w);
                err.printf("  worker %d: %d packets received, %d dropped by kernel, %d dropped by interface, "
                        + "%d dropped by the agent%n", w, s.received(), s.droppedKernel(), s.droppedInterface(),
                        readings.agentDrops(w));
            }
        }
        err.printf("decoded: %d IP, %d not IP, %d malformed, %d on unsupported link types%n",
                c.status(DecodeStatus.IP), c.status(DecodeStatus.NOT_IP), c.status(DecodeStatus.MALFORMED),
                c.status(DecodeStatus.UNSUPPORTED_LINK));
        if (!c.malformedByReason().isEmpty()) {
            err.println("not decoded by reason: " + c.malformedByReason());
        }
        err.printf("kept %d IP packets (%d outside the -F filter); %d flows, %d evicted early%n", c.keptCount(),
                c.filteredOutCount(), readings.flowsCreated(), readings.evictions());
        err.flush();
    }

    /**
     * The Kafka counters of a closed sink, then what went wrong: records lost (dropped or refused for good), why the
     * broker could not be used, and records still in the spool; the messages name {@code command}
     * ({@code siteflow capture}, {@code siteflow collect}).
     *
     * @return true when a record was lost or is still unsent: the run exits 1
     */
    static boolean printKafka(PrintWriter err, KafkaFlowSink kafka, String command) {
        PublishStats p = kafka.stats();
        err.printf("kafka: %d records sent, %d spooled, %d replayed, %d dropped, %d rejected%n", p.sent(),
                p.spooled(), p.replayed(), p.dropped(), p.rejected());
        long lost = p.dropped() + p.rejected();
        if (lost == 0 && p.spoolRecords() == 0) {
            return false;
        }
        kafka.brokerProblem().ifPresent(problem -> err.println(command + ": " + problem));
        if (lost > 0) {
            err.printf(command + ": %d of %d records lost (%d dropped: hand-off queue or spool full, or the "
                    + "spool not writable; %d refused by the broker)%n", lost, p.accepted(), p.dropped(), p.rejected());
        }
        if (p.spoolRecords() > 0) {
            err.printf(command + ": %d records not sent, kept in the spool %s; the next run with "
                    + "--spool-dir %s sends them first%n", p.spoolRecords(), kafka.spoolDir(), kafka.spoolDir());
        }
        err.flush();
        return true;
    }

    /**
     * What the source lost itself ({@link io.siteflow.agent.source.FlowSource#losses()}), one line each, named by
     * {@code command}: {@code siteflow collect: 150 of 250 datagrams lost: ...}.
     *
     * @return true when there was a loss: the run exits 1
     */
    static boolean printLosses(PrintWriter err, List<String> losses, String command) {
        losses.forEach(l -> err.println(command + ": " + l));
        err.flush();
        return !losses.isEmpty();
    }
}
