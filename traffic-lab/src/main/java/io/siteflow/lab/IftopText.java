package io.siteflow.lab;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the per-pair cumulative totals from {@code iftop -t -B -n -N -L 100 ...} output: each pair is a
 * {@code =>} line and a {@code <=} line, the last column being the cumulative bytes of that direction,
 * printed the way iftop's {@code readable_size} does (3 significant digits, units of 1024: {@code 747B},
 * {@code 24.4KB}, {@code 2.86MB}). A printed value stands for any exact count within half its last digit,
 * so {@link Total#agrees} asks exactly that. {@link #reports} reads every column of every report of a text
 * (iftop -t prints one every 2 s without {@code -s}; siteflow's {@code --text} one at the end) and
 * {@link Printed#agrees} says whether two printed values can stand for the same number. Stateless.
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

    private static final Pattern ROW_SENT = Pattern.compile("^\\s*\\d+\\s+(\\S+)\\s+=>((?:\\s+\\S+){4})\\s*$");
    private static final Pattern ROW_RECEIVED = Pattern.compile("^\\s+(\\S+)\\s+<=((?:\\s+\\S+){4})\\s*$");
    private static final Pattern TOTAL = Pattern.compile(
            "^(Total send rate|Total receive rate|Total send and receive rate|Peak rate \\(sent/received/total\\)"
                    + "|Cumulative \\(sent/received/total\\)):((?:\\s+\\S+){3})\\s*$");
    private static final Pattern PRINTED = Pattern.compile("(\\d+(?:\\.(\\d+))?)([KMG]?)([bB])");

    /**
     * One report as printed.
     *
     * @param pairs  per pair, keyed {@code "left right"} as printed: the 2 s, 10 s, 40 s and cumulative values
     *               of {@code =>}, then the same four of {@code <=}
     * @param totals per totals line, keyed by its label without the colon: its three values
     */
    public record Report(Map<String, List<Printed>> pairs, Map<String, List<Printed>> totals) {
    }

    /**
     * A value as iftop's {@code readable_size} prints it: bits ({@code b}, {@code Kb}, ...) or bytes
     * ({@code B}, {@code KB}, ...), units of 1024, three significant digits.
     *
     * @param value     the number it stands for (bits or bytes)
     * @param tolerance half of its last printed digit, in the same unit
     * @param bits      true for a rate in bits
     * @param text      as printed
     */
    public record Printed(double value, double tolerance, boolean bits, String text) {
        /** Parses one printed value; the message names the text. */
        public static Printed of(String text) {
            Matcher m = PRINTED.matcher(text);
            if (!m.matches()) {
                throw new IllegalArgumentException("\"" + text + "\" is not a value iftop prints");
            }
            double unit = m.group(3).isEmpty() ? 1 : Math.pow(1024, "KMG".indexOf(m.group(3)) + 1);
            int decimals = m.group(2) == null ? 0 : m.group(2).length();
            return new Printed(Double.parseDouble(m.group(1)) * unit, 0.5 * Math.pow(10, -decimals) * unit,
                    m.group(4).equals("b"), text);
        }

        /** True when one exact number could print as both values (same kind, ranges overlap). */
        public boolean agrees(Printed other) {
            return bits == other.bits && Math.abs(value - other.value) <= tolerance + other.tolerance + 1e-9;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    private IftopText() {
    }

    /**
     * Every report in {@code text}, in order; a report ends with its line of {@code =}.
     *
     * @throws IllegalArgumentException for a {@code <=} line without its {@code =>} line or a value iftop would
     *                                  not print (the message names the line)
     */
    public static List<Report> reports(String text) {
        List<Report> reports = new ArrayList<>();
        Map<String, List<Printed>> pairs = new LinkedHashMap<>();
        Map<String, List<Printed>> totals = new LinkedHashMap<>();
        String left = null;
        List<Printed> sent = null;
        int lineNo = 0;
        for (String line : text.split("\n")) {
            lineNo++;
            Matcher s = ROW_SENT.matcher(line);
            Matcher r = ROW_RECEIVED.matcher(line);
            Matcher t = TOTAL.matcher(line);
            if (s.matches()) {
                left = s.group(1);
                sent = printed(s.group(2), lineNo);
            } else if (r.matches()) {
                if (left == null) {
                    throw new IllegalArgumentException("iftop line " + lineNo + ": <= without a => line: " + line.strip());
                }
                List<Printed> both = new ArrayList<>(sent);
                both.addAll(printed(r.group(2), lineNo));
                pairs.put(left + " " + r.group(1), List.copyOf(both));
                left = null;
            } else if (t.matches()) {
                totals.put(t.group(1), printed(t.group(2), lineNo));
            } else if (line.startsWith("=====")) {
                reports.add(new Report(Map.copyOf(pairs), Map.copyOf(totals)));
                pairs = new LinkedHashMap<>();
                totals = new LinkedHashMap<>();
            }
        }
        return reports;
    }

    private static List<Printed> printed(String values, int lineNo) {
        List<Printed> out = new ArrayList<>();
        for (String v : values.trim().split("\\s+")) {
            try {
                out.add(Printed.of(v));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("iftop line " + lineNo + ": " + e.getMessage(), e);
            }
        }
        return List.copyOf(out);
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
