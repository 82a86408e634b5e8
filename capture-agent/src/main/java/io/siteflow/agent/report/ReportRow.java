package io.siteflow.agent.report;

import io.siteflow.agent.config.ReportOrder;
import io.siteflow.model.IpAddresses;
import java.util.Comparator;

/**
 * One pair's line of the report: its two ends as printed, the rates of each direction per column (bytes per
 * second) and the cumulative bytes.
 *
 * @param left       the left end's address ({@code =>} is what it sent)
 * @param leftPort   its port, 0 without {@code -P}
 * @param right      the right end's address
 * @param rightPort  its port, 0 without {@code -P}
 * @param v4         true for IPv4
 * @param sent       rates of the left end's bytes over 2, 10 and 40 s
 * @param received   rates of the right end's bytes over 2, 10 and 40 s
 * @param cumulativeSent     bytes the left end sent
 * @param cumulativeReceived bytes the right end sent
 */
record ReportRow(String left, int leftPort, String right, int rightPort, boolean v4, double[] sent,
        double[] received, long cumulativeSent, long cumulativeReceived) {

    static ReportRow of(PairKey k, History h, Window w, boolean ports) {
        double[] sent = new double[Window.COLUMN_SLOTS.length];
        double[] received = new double[sent.length];
        for (int c = 0; c < sent.length; c++) {
            sent[c] = w.rate(h, h.sent, c);
            received[c] = w.rate(h, h.received, c);
        }
        return new ReportRow(IpAddresses.format(k.lHi(), k.lLo()), ports ? k.lPort() : 0,
                IpAddresses.format(k.rHi(), k.rLo()), ports ? k.rPort() : 0, IpAddresses.isV4(k.lHi(), k.lLo()),
                sent, received, h.cumulativeSent, h.cumulativeReceived);
    }

    double both(int column) {
        return sent[column] + received[column];
    }

    /**
     * iftop's {@code screen_line_compare}: by rates (largest first) from the order's column on, or by the host's
     * address as text and then the 40-second column. Where iftop keeps equal lines in hash order, this breaks the
     * tie by cumulative bytes (largest first), then the addresses.
     */
    static Comparator<ReportRow> order(ReportOrder order) {
        Comparator<ReportRow> ties = Comparator.comparingLong((ReportRow r) -> -(r.cumulativeSent + r.cumulativeReceived))
                .thenComparing(ReportRow::left).thenComparing(ReportRow::right)
                .thenComparingInt(ReportRow::leftPort).thenComparingInt(ReportRow::rightPort);
        return switch (order) {
            case SOURCE -> Comparator.comparing(ReportRow::left).thenComparing(byRates(2)).thenComparing(ties);
            case DESTINATION -> Comparator.comparing(ReportRow::right).thenComparing(byRates(2)).thenComparing(ties);
            default -> byRates(order.firstColumn()).thenComparing(ties);
        };
    }

    private static Comparator<ReportRow> byRates(int from) {
        Comparator<ReportRow> c = Comparator.comparingDouble(r -> -r.both(from));
        for (int i = from + 1; i < Window.COLUMN_SLOTS.length; i++) {
            int column = i;
            c = c.thenComparingDouble(r -> -r.both(column));
        }
        return c;
    }
}
