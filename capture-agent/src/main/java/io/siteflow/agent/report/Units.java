package io.siteflow.agent.report;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * iftop's {@code readable_size}, digit for digit: the value is taken as a C {@code float} (times 8 in float
 * for bits), then printed as {@code " %4.0f"} below 1000 of a unit, else in the next unit of 1024 as
 * {@code %4.2f} below 10, {@code %4.1f} below 100, else on to the next unit; units stop at G. printf rounds
 * the exact binary value half to even, as glibc does. The result keeps iftop's leading space and its
 * 9-character limit.
 */
final class Units {
    private static final String[] BITS = {"b", "Kb", "Mb", "Gb"};
    private static final String[] BYTES = {"B", "KB", "MB", "GB"};

    private Units() {
    }

    /** A rate given in bytes per second, in bits ({@code bytes} false) or bytes per second. */
    static String rate(double bytesPerSecond, boolean bytes) {
        float n = (float) bytesPerSecond;
        if (!bytes) {
            n *= 8;
        }
        return readable(n, bytes ? BYTES : BITS);
    }

    /** A byte count. */
    static String bytes(double bytes) {
        return readable((float) bytes, BYTES);
    }

    private static String readable(float n, String[] units) {
        int i = 0;
        float size = 1;
        while (true) {
            if (n < size * 1000 || i >= units.length - 1) {
                return print(n / size, 0, units[i]);
            }
            i++;
            size *= 1024;
            if (n < size * 10) {
                return print(n / size, 2, units[i]);
            } else if (n < size * 100) {
                return print(n / size, 1, units[i]);
            }
        }
    }

    private static String print(float value, int decimals, String unit) {
        String digits = new BigDecimal((double) value).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
        String s = " " + " ".repeat(Math.max(0, 4 - digits.length())) + digits + unit;
        return s.length() > 9 ? s.substring(0, 9) : s;
    }
}
