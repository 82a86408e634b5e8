package io.siteflow.agent.export;

import io.siteflow.model.wire.Heartbeat;
import java.util.ArrayList;
import java.util.List;

/**
 * What the collector says of its counters at the end of a run and in each heartbeat: the summary lines (standard
 * error), the heartbeat's {@link Heartbeat.Export} counters, and the datagrams the collector itself lost (the run
 * exits 1 for them). Static; reads {@link ExportCounters}, which may be read from any thread.
 */
final class ExportSummary {
    private ExportSummary() {
    }

    /**
     * The summary: datagrams, exporters and records; sequence-number loss and malformed input; conversations; the
     * receive pool; with {@code sflow}, the sFlow line.
     *
     * @param name      the sockets, as {@link ExportSource#name()} gives them
     * @param exporters exporters whose datagrams were decoded
     * @param joiner    the joiner the run filled, or null when it did not start
     * @param poolBytes the receive pool's size ({@code --receive-buffer-mb})
     * @param peak      the most bytes the pool held at once
     */
    static List<String> lines(String name, ExportCounters c, long exporters, BiflowJoiner joiner, int poolBytes,
            long peak, boolean sflow) {
        String malformed = c.malformedByKind().isEmpty() ? "" : " " + c.malformedByKind();
        List<String> lines = new ArrayList<>(List.of(
                String.format("%s: %d datagrams from %d exporters, %d refused; %d flow records, %d options records",
                        name, c.datagrams(), exporters, c.refused(), c.records(), c.optionsRecords()),
                String.format("lost by sequence numbers: %d records (v5, IPFIX), %d export packets (v9); %d sequence "
                        + "resets; %d malformed%s", c.lostRecords(), c.lostPackets(), c.sequenceResets(),
                        c.malformedTotal(), malformed),
                String.format("%d conversations, %d evicted early", joiner == null ? 0 : joiner.created(),
                        joiner == null ? 0 : joiner.evictions()),
                String.format("receive pool %s: %d datagrams dropped (full), at most %d bytes held",
                        DatagramPool.size(poolBytes), c.dropped(), peak)));
        if (sflow) {
            lines.add(String.format("sFlow: %d flow samples, %d packets in flows, %d not IP; %d counter samples (%d "
                    + "interface counters); %d skipped by length; %d datagrams lost by sequence numbers; %d "
                    + "dropped by agents", c.sflowFlowSamples(), c.sflowPackets(), c.sflowNotIp(),
                    c.sflowCounterSamples(), c.sflowInterfaceCounters(), c.sflowSkippedRecords(),
                    c.sflowLostDatagrams(), c.sflowAgentDrops()));
        }
        return lines;
    }

    /**
     * The heartbeat's collector counters as they are now: a datagram the pool dropped counts as received and, as it
     * could not be read, as malformed.
     */
    static Heartbeat.Export heartbeat(ExportCounters c) {
        return new Heartbeat.Export(c.datagrams(), c.records(), c.lostRecords(), c.lostPackets(), c.sflowPackets(),
                c.sflowLostDatagrams(), c.malformedTotal() + c.dropped(), c.refused());
    }

    /**
     * The datagrams the collector lost itself, for the end of the run: empty when none, else one line
     * ({@code 150 of 250 datagrams lost: ...}) naming how many and why. Loss between exporter and collector
     * (sequence numbers) is the network's, not the collector's, and is not here.
     */
    static List<String> losses(ExportCounters c, int poolBytes) {
        if (c.dropped() == 0) {
            return List.of();
        }
        return List.of(String.format("%d of %d datagrams lost: dropped because the receive pool (%s, "
                + "--receive-buffer-mb) was full (decoding fell behind); their flow records were not written",
                c.dropped(), c.datagrams(), DatagramPool.size(poolBytes)));
    }
}
