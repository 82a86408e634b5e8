package io.siteflow.agent.report;

import java.io.PrintWriter;

/**
 * The text layout of iftop's {@code tui_print} and {@code sprint_host}: a 40-character host column, 10-character
 * value columns, 92-character rules and 48-character labels for the totals. Not thread-safe.
 */
final class ReportLayout {
    private static final int WIDTH = 40;
    private static final String RULE = "-".repeat(WIDTH + 52);
    private final PrintWriter out;
    private final boolean bytes;

    ReportLayout(PrintWriter out, boolean bytes) {
        this.out = out;
        this.bytes = bytes;
    }

    void header() {
        out.printf("   # %-39s     %10s %10s %10s %10s%n", "Host name (port/service if enabled)", "last 2s", "last 10s",
                "last 40s", "cumulative");
        out.println(RULE);
    }

    void pair(int n, ReportRow r) {
        out.printf("%4d %s =>", n, host(r.left(), r.leftPort(), r.v4()));
        values(r.sent(), r.cumulativeSent());
        out.printf("     %s <=", host(r.right(), r.rightPort(), r.v4()));
        values(r.received(), r.cumulativeReceived());
    }

    void totals(History t, Window w) {
        out.println(RULE);
        double[][] rates = new double[3][Window.COLUMN_SLOTS.length];
        for (int c = 0; c < Window.COLUMN_SLOTS.length; c++) {
            rates[0][c] = w.rate(t, t.sent, c);
            rates[1][c] = w.rate(t, t.received, c);
            rates[2][c] = rates[0][c] + rates[1][c];
        }
        String[] labels = {"Total send rate:", "Total receive rate:", "Total send and receive rate:"};
        for (int i = 0; i < labels.length; i++) {
            out.printf("%-48s %10s %10s %10s%n", labels[i], Units.rate(rates[i][0], bytes), Units.rate(rates[i][1], bytes),
                    Units.rate(rates[i][2], bytes));
        }
        out.println(RULE);
        long n = w.newest();
        // iftop: an int of bytes per slot divided by RESOLUTION in integer arithmetic
        out.printf("%-48s %10s %10s %10s%n", "Peak rate (sent/received/total):", Units.rate(t.peak(t.sent, null, n) / 2, bytes),
                Units.rate(t.peak(t.received, null, n) / 2, bytes), Units.rate(t.peak(t.sent, t.received, n) / 2, bytes));
        out.printf("%-48s %10s %10s %10s%n", "Cumulative (sent/received/total):", Units.bytes(t.cumulativeSent),
                Units.bytes(t.cumulativeReceived), Units.bytes(t.cumulativeSent + t.cumulativeReceived));
        out.println("=".repeat(WIDTH + 52));
        out.println();
    }

    private void values(double[] rates, long cumulative) {
        for (double r : rates) {
            out.printf(" %10s", Units.rate(r, bytes));
        }
        out.printf(" %10s%n", Units.bytes(cumulative));
    }

    /** iftop's {@code sprint_host} without name lookups: the address, {@code :port}, IPv6 with a port in brackets. */
    static String host(String address, int port, boolean v4) {
        String service = port == 0 ? "" : ":" + port;
        String line;
        int left = address.length();
        if (port == 0 || v4) {
            line = pad(address, WIDTH);
        } else {
            line = "[" + address.substring(0, Math.min(address.length(), WIDTH - 2)) + "]";
            left += 2;
        }
        left = Math.max(0, Math.min(left, WIDTH - service.length()));
        return line.substring(0, Math.min(left, line.length())) + pad(service, WIDTH - left);
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
