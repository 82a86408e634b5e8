package io.siteflow.lab;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the per-pair cumulative totals from {@code iftop -t -B -n -N -L 100 ...} output: each pair is a
 * {@code =>} line and a {@code <=} line, the last column being the cumulative bytes of that direction,
 * printed the way iftop's {@code readable_size} does (3 significant digits, units of 1024: {@code 747B},
 * {@code 24.4KB}, {@code 2.86MB}). A printed value stands for any exact count within half its last digit,
 * so {@link Total#agrees} asks exactly that. Stateless.
 */
public final class IftopText {
    private static final Pattern SENT = Pattern.compile("^\\s*\\d+\\s+(\\S+)\\s+=>.*\\s(\\S+)\\s*$");
    private static final Pattern RECEIVED = Pattern.compile("^\\s+(\\S+)\\s+<=.*\\s(\\S+)\\s*$");
    private static final Pattern VALUE = Pattern.compile("(\\d+(?:\\.(\\d+))?)([KMGT]?)B");

    /**
     * One pair's cumulative bytes (both directions) as iftop printed them.
     *
     * @param bytes     the printed values, converted to bytes and summed
     * @param tolerance half of the last printed digit of each, summed (bytes)
     */
    public record Total(double bytes, double tolerance) {
        /** True when an exact count {@code exact} prints as this total. */
        public boolean agrees(long exact) {
            return Math.abs(exact - bytes) <= tolerance + 1e-9;
        }
    }

    private IftopText() {
    }

    /**
     * The per-pair totals, keyed {@code "a b"} with the lower address first as strings compare (as
     * {@link LabTruth#pairs()}).
     *
     * @throws IllegalArgumentException for a {@code <=} line without its {@code =>} line, or a value iftop
     *                                  would not print (message names the line)
     */
    public static Map<String, Total> cumulative(String text) {
        Map<String, Total> pairs = new TreeMap<>();
        String host = null;
        double[] sent = null;
        int lineNo = 0;
        for (String line : text.split("\n")) {
            lineNo++;
            Matcher s = SENT.matcher(line);
            Matcher r = RECEIVED.matcher(line);
            if (s.matches()) {
                host = s.group(1);
                sent = value(s.group(2), lineNo);
            } else if (r.matches()) {
                if (host == null) {
                    throw new IllegalArgumentException("iftop line " + lineNo + ": <= without a => line: " + line.strip());
                }
                double[] received = value(r.group(2), lineNo);
                String other = r.group(1);
                String key = host.compareTo(other) <= 0 ? host + " " + other : other + " " + host;
                pairs.put(key, new Total(sent[0] + received[0], sent[1] + received[1]));
                host = null;
            }
        }
        return pairs;
    }

    /** {value in bytes, half of its last digit in bytes}. */
    private static double[] value(String printed, int lineNo) {
        Matcher m = VALUE.matcher(printed);
        if (!m.matches()) {
            throw new IllegalArgumentException("iftop line " + lineNo + ": \"" + printed + "\" is not a byte count");
        }
        double unit = Math.pow(1024, "KMGT".indexOf(m.group(3)) + 1);
        if (m.group(3).isEmpty()) {
            unit = 1;
        }
        int decimals = m.group(2) == null ? 0 : m.group(2).length();
        return new double[] {Double.parseDouble(m.group(1)) * unit, 0.5 * Math.pow(10, -decimals) * unit};
    }
}
