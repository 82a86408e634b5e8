package io.siteflow.agent.report;

import io.siteflow.agent.decode.Packet;
import io.siteflow.agent.flow.RemoteSiteFilter;
import io.siteflow.model.IpAddresses;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code iftop -t}-style report: per host pair (per port pair with {@code -P}) the rates over the last
 * 2 s, 10 s and 40 s, the cumulative bytes and the peak 2-second rate, both directions, sorted by the
 * 10-second column (then cumulative). Bytes are IP bytes, as iftop counts them.
 *
 * <p>Orientation follows iftop: with {@code -F} the left host is the end inside the CIDRs and {@code =>}
 * is what it sent; without {@code -F} (iftop would use the interface's own address, unknown for a file)
 * the left host is the pair's first sender. Time is packet time: a report at the end of a file gives the
 * rates of the file's last 40 seconds. Fed from the capture thread; {@link #print} must be called from
 * the same thread or after it stopped. Not thread-safe.
 */
public final class TextReport {
    private final RemoteSiteFilter filter;
    private final boolean ports;
    private final Map<PairKey, PairStats> pairs = new HashMap<>();
    private final PairStats totals = new PairStats();
    private long lastSlot = Long.MIN_VALUE;

    private record PairKey(long lHi, long lLo, int lPort, long rHi, long rLo, int rPort) {
        PairKey reversed() {
            return new PairKey(rHi, rLo, rPort, lHi, lLo, lPort);
        }
    }

    /**
     * @param filter the {@code -F} CIDRs (orientation)
     * @param ports  true for port pairs ({@code -P})
     */
    public TextReport(RemoteSiteFilter filter, boolean ports) {
        this.filter = filter;
        this.ports = ports;
    }

    /** Counts one kept packet. */
    public void offer(Packet p, long tsNanos) {
        long slot = Math.floorDiv(tsNanos, PairStats.SLOT_NS);
        lastSlot = Math.max(lastSlot, slot);
        int sp = ports && p.hasPorts ? p.srcPort : 0;
        int dp = ports && p.hasPorts ? p.dstPort : 0;
        PairKey key = new PairKey(p.srcHi, p.srcLo, sp, p.dstHi, p.dstLo, dp);
        boolean outgoing = true;
        if (!filter.keepsAll()) {
            if (!filter.inside(p.srcHi, p.srcLo)) {
                key = key.reversed();
                outgoing = false;
            }
        } else if (!pairs.containsKey(key)) {
            PairKey rev = key.reversed();
            if (pairs.containsKey(rev)) {
                key = rev;
                outgoing = false;
            }
        }
        pairs.computeIfAbsent(key, k -> new PairStats()).add(slot, outgoing, p.ipBytes);
        totals.add(slot, outgoing, p.ipBytes);
    }

    /** Host pairs (or port pairs) seen. */
    public int pairCount() {
        return pairs.size();
    }

    /**
     * Prints the report.
     *
     * @param out   where to
     * @param title the interface or file name
     * @param lines pairs to show; 0 shows all
     */
    public void print(PrintWriter out, String title, int lines) {
        List<Map.Entry<PairKey, PairStats>> rows = new ArrayList<>(pairs.entrySet());
        for (Map.Entry<PairKey, PairStats> e : rows) {
            e.getValue().roll(lastSlot);
        }
        totals.roll(lastSlot);
        rows.sort(Comparator.<Map.Entry<PairKey, PairStats>>comparingDouble(e -> -tenSeconds(e.getValue()))
                .thenComparingLong(e -> -(e.getValue().cumulativeSent + e.getValue().cumulativeReceived)));
        String rule = "-".repeat(120);
        out.println("Listening on " + title);
        out.printf("   # %-50s %10s %10s %10s %10s %10s%n", "Host name (port/service if enabled)",
                "last 2s", "last 10s", "last 40s", "cumulative", "peak");
        out.println(rule);
        int n = lines <= 0 ? rows.size() : Math.min(lines, rows.size());
        for (int i = 0; i < n; i++) {
            PairKey k = rows.get(i).getKey();
            PairStats s = rows.get(i).getValue();
            out.printf("%4d %-45s => %10s %10s %10s %10s %10s%n", i + 1, host(k.lHi(), k.lLo(), k.lPort()),
                    rate(s, s.sent, 1), rate(s, s.sent, 5), rate(s, s.sent, 20), Units.bytes(s.cumulativeSent),
                    Units.bitsPerSecond(s.peakSentBytes / 2.0));
            out.printf("     %-45s <= %10s %10s %10s %10s %10s%n", host(k.rHi(), k.rLo(), k.rPort()),
                    rate(s, s.received, 1), rate(s, s.received, 5), rate(s, s.received, 20),
                    Units.bytes(s.cumulativeReceived), Units.bitsPerSecond(s.peakReceivedBytes / 2.0));
        }
        out.println(rule);
        out.printf("%-53s %10s %10s %10s%n", "Total send rate:", rate(totals, totals.sent, 1),
                rate(totals, totals.sent, 5), rate(totals, totals.sent, 20));
        out.printf("%-53s %10s %10s %10s%n", "Total receive rate:", rate(totals, totals.received, 1),
                rate(totals, totals.received, 5), rate(totals, totals.received, 20));
        out.printf("%-53s %10s %10s %10s%n", "Total send and receive rate:", both(totals, 1), both(totals, 5),
                both(totals, 20));
        out.println(rule);
        out.printf("%-53s %10s %10s %10s%n", "Peak rate (sent/received/total):",
                Units.bitsPerSecond(totals.peakSentBytes / 2.0), Units.bitsPerSecond(totals.peakReceivedBytes / 2.0),
                Units.bitsPerSecond(totals.peakTotalBytes / 2.0));
        out.printf("%-53s %10s %10s %10s%n", "Cumulative (sent/received/total):", Units.bytes(totals.cumulativeSent),
                Units.bytes(totals.cumulativeReceived), Units.bytes(totals.cumulativeSent + totals.cumulativeReceived));
        out.println("=".repeat(120));
        out.flush();
    }

    private static double tenSeconds(PairStats s) {
        return s.rate(s.sent, 5) + s.rate(s.received, 5);
    }

    private static String rate(PairStats s, long[] history, int slots) {
        return Units.bitsPerSecond(s.rate(history, slots));
    }

    private static String both(PairStats s, int slots) {
        return Units.bitsPerSecond(s.rate(s.sent, slots) + s.rate(s.received, slots));
    }

    private String host(long hi, long lo, int port) {
        String a = IpAddresses.format(hi, lo);
        if (!ports) {
            return a;
        }
        return (IpAddresses.isV4(hi, lo) ? a : "[" + a + "]") + ":" + port;
    }
}
