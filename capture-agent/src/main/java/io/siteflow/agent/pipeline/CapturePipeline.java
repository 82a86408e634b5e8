package io.siteflow.agent.pipeline;

import io.siteflow.agent.capture.PacketHandler;
import io.siteflow.agent.decode.DecodeStatus;
import io.siteflow.agent.decode.Packet;
import io.siteflow.agent.decode.PacketDecoder;
import io.siteflow.agent.flow.FlowTable;
import io.siteflow.agent.flow.RemoteSiteFilter;
import io.siteflow.agent.metrics.DecodeCounters;
import io.siteflow.agent.report.TextReport;
import java.util.function.IntConsumer;

/**
 * The agent's per-packet path: decode → count → {@code -F} filter → flow table (and the text report).
 * Runs on one thread; not thread-safe. Wired by {@link Pipeline}: used for files and live rings read from Java
 * directly (on the reading thread), and for libpcap's live capture and paced replays behind a {@link PacketHandoff}.
 */
public final class CapturePipeline implements PacketHandler {
    private final PacketDecoder decoder = new PacketDecoder();
    private final Packet packet = new Packet();
    private final DecodeCounters counters = new DecodeCounters();
    private final RemoteSiteFilter filter;
    private final FlowTable table;
    private final TextReport report;
    private final boolean sharedReport;
    private final IntConsumer onUnsupportedLinkType;

    /** A pipeline that alone offers to {@code report}. */
    public CapturePipeline(RemoteSiteFilter filter, FlowTable table, TextReport report,
            IntConsumer onUnsupportedLinkType) {
        this(filter, table, report, false, onUnsupportedLinkType);
    }

    /**
     * @param filter                the {@code -F} filter
     * @param table                 where kept packets go
     * @param report                the text report, or null
     * @param sharedReport          true when other threads offer to the same report (it is then locked)
     * @param onUnsupportedLinkType told once per unsupported link type met
     */
    public CapturePipeline(RemoteSiteFilter filter, FlowTable table, TextReport report, boolean sharedReport,
            IntConsumer onUnsupportedLinkType) {
        this.filter = filter;
        this.table = table;
        this.report = report;
        this.sharedReport = sharedReport;
        this.onUnsupportedLinkType = onUnsupportedLinkType;
    }

    @Override
    public void onPacket(long ts, int linkType, byte[] data, int offset, int capLen, int wireLen) {
        DecodeStatus status = decoder.decode(linkType, data, offset, capLen, wireLen, packet);
        if (counters.count(status, packet.malformed, linkType, wireLen)) {
            onUnsupportedLinkType.accept(linkType);
        }
        if (status != DecodeStatus.IP) {
            table.advanceTime(ts);
            return;
        }
        if (!filter.keep(packet.srcHi, packet.srcLo, packet.dstHi, packet.dstLo)) {
            counters.filteredOut();
            table.advanceTime(ts);
            return;
        }
        counters.kept();
        table.offer(packet, ts, wireLen, data);
        if (report != null) {
            offerToReport(ts);
        }
    }

    /** Advances the flow table's clock, so that timeouts fire while no packet comes (a live ring read here). */
    @Override
    public void onIdle(long wallClockNanos) {
        table.advanceTime(wallClockNanos);
    }

    private void offerToReport(long ts) {
        if (sharedReport) {
            synchronized (report) {
                report.offer(packet, ts);
            }
        } else {
            report.offer(packet, ts);
        }
    }

    public DecodeCounters counters() {
        return counters;
    }

    public FlowTable table() {
        return table;
    }
}
