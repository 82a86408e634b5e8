package io.siteflow.agent.report;

import io.siteflow.agent.config.ReportOrder;
import io.siteflow.agent.decode.Packet;
import io.siteflow.agent.flow.RemoteSiteFilter;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code iftop -t} report, computed as iftop 1.0pre4 computes it (capture-agent/docs/report.md gives the
 * rules with their places in iftop's source): per host pair (per port pair with {@code -P}) the rates over the
 * last 2, 10 and 40 s and the cumulative bytes, both directions; the totals and the peak 2-second rates. Bytes
 * are IP bytes. History is kept in 2-second slots on the even seconds of packet time; a report at time
 * {@code now} sees the slots that ended by then (the slot still filling is left out, as iftop prints when a
 * slot ends) and divides each column by the time it covers, at most the time seen since the start.
 *
 * <p>Orientation follows iftop: with {@code -F} the left host is the end inside the CIDRs and {@code =>} is what
 * it sent; without {@code -F} (iftop would use the interface's own address, unknown for a file) the left host is
 * the pair's first sender. Fed from the capture thread; {@link #print} must be called from the same thread or
 * after it stopped. Not thread-safe.
 */
public final class TextReport {
    private final RemoteSiteFilter filter;
    private final boolean ports;
    private final ReportOrder order;
    private final boolean bytes;
    private final Map<PairKey, History> pairs = new HashMap<>();
    private final History totals = new History();
    private long firstSlot = Long.MIN_VALUE;
    private long endNanos = Long.MAX_VALUE;
    private long lastPacketNanos = Long.MIN_VALUE;

    /**
     * @param filter the {@code -F} CIDRs (orientation)
     * @param ports  true for port pairs ({@code -P})
     * @param order  the sort order ({@code -o})
     * @param bytes  rates in bytes per second ({@code -B}) instead of bits
     */
    public TextReport(RemoteSiteFilter filter, boolean ports, ReportOrder order, boolean bytes) {
        this.filter = filter;
        this.ports = ports;
        this.order = order;
        this.bytes = bytes;
    }

    /** The capture started at {@code nanos}: its slot is the first one seen (iftop's first history slot). */
    public void begin(long nanos) {
        if (firstSlot == Long.MIN_VALUE) {
            firstSlot = Math.floorDiv(nanos, History.SLOT_NS);
        }
    }

    /** Packets at or after {@code nanos} are not counted (the report of a timed run ends there). */
    public void endAt(long nanos) {
        endNanos = nanos;
    }

    /** Counts one kept packet; the first one starts the history unless {@link #begin} did. */
    public void offer(Packet p, long tsNanos) {
        if (tsNanos >= endNanos) {
            return;
        }
        long slot = Math.floorDiv(tsNanos, History.SLOT_NS);
        begin(tsNanos);
        lastPacketNanos = Math.max(lastPacketNanos, tsNanos);
        boolean withPorts = ports && p.hasPorts;
        PairKey key = new PairKey(p.srcHi, p.srcLo, withPorts ? p.srcPort : 0, p.dstHi, p.dstLo,
                withPorts ? p.dstPort : 0, ports ? p.protocol : 0);
        boolean outgoing = true;
        if (!filter.keepsAll()) {
            if (!filter.inside(p.srcHi, p.srcLo)) {
                key = key.reversed();
                outgoing = false;
            }
        } else if (!pairs.containsKey(key) && pairs.containsKey(key.reversed())) {
            key = key.reversed();
            outgoing = false;
        }
        pairs.computeIfAbsent(key, k -> new History()).add(slot, outgoing, p.ipBytes);
        totals.add(slot, outgoing, p.ipBytes);
    }

    /** Host pairs (or port pairs) seen. */
    public int pairCount() {
        return pairs.size();
    }

    /** The newest packet's time, or {@code Long.MIN_VALUE} before the first. */
    public long lastPacketNanos() {
        return lastPacketNanos;
    }

    /**
     * Prints the report as iftop would at the last slot end at or before {@code nowNanos}.
     *
     * @param out      where to
     * @param title    the interface or file name
     * @param lines    pairs to show; 0 shows all
     * @param nowNanos the report's time (packet time)
     */
    public void print(PrintWriter out, String title, int lines, long nowNanos) {
        Window w = new Window(Math.floorDiv(nowNanos, History.SLOT_NS) - 1, firstSlot);
        List<ReportRow> rows = new ArrayList<>();
        pairs.entrySet().removeIf(e -> e.getValue().lastSlot <= w.newest() - History.SLOTS);
        pairs.forEach((k, h) -> rows.add(ReportRow.of(k, h, w, ports)));
        rows.sort(ReportRow.order(order));
        ReportLayout layout = new ReportLayout(out, bytes);
        out.println("Listening on " + title);
        layout.header();
        int n = lines <= 0 ? rows.size() : Math.min(lines, rows.size());
        for (int i = 0; i < n; i++) {
            layout.pair(i + 1, rows.get(i));
        }
        layout.totals(totals, w);
        out.flush();
    }
}
