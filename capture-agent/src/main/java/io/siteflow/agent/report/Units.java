package io.siteflow.agent.report;

import java.util.Locale;

/**
 * iftop's number formats: rates in bits per second with b, Kb, Mb, Gb and totals in bytes with B, KB,
 * MB, GB, both with steps of 1024 and three significant digits.
 */
final class Units {
    private static final String[] BITS = {"b", "Kb", "Mb", "Gb", "Tb"};
    private static final String[] BYTES = {"B", "KB", "MB", "GB", "TB"};

    private Units() {
    }

    static String bitsPerSecond(double bytesPerSecond) {
        return human(bytesPerSecond * 8, BITS);
    }

    static String bytes(double bytes) {
        return human(bytes, BYTES);
    }

    private static String human(double n, String[] units) {
        int u = 0;
        while (n >= 1000 && u < units.length - 1) {
            n /= 1024;
            u++;
        }
        if (u == 0) {
            return String.format(Locale.ROOT, "%d%s", Math.round(n), units[0]);
        }
        String digits = n < 10 ? "%.2f%s" : n < 100 ? "%.1f%s" : "%.0f%s";
        return String.format(Locale.ROOT, digits, n, units[u]);
    }
}
