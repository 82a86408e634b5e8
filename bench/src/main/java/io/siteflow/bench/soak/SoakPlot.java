package io.siteflow.bench.soak;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * The soak's plot, drawn with Java2D (no gnuplot needed): {@code SoakPlot SERIES.csv OUT.png [TITLE]}. Top panel:
 * lag p50 and p99 per interval (ms); bottom panel: each processor's RSS and heap after GC (MiB); both over the
 * seconds since the load started. Reads the columns {@link SoakSeries} writes; throws naming the file and column
 * when one is missing.
 */
public final class SoakPlot {
    private static final int W = 1200;
    private static final int PANEL_H = 380;
    private static final int LEFT = 80;
    private static final int RIGHT = 30;
    private static final int TOP = 40;
    private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
        new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b)};

    /** A named line of (t, value) points, NaN values are gaps; {@code color} indexes the palette. */
    record Series(String name, double[] t, double[] v, boolean dashed, int color) {
    }

    private SoakPlot() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: SoakPlot SERIES.csv OUT.png [TITLE]");
            System.exit(64);
        }
        Csv csv = Csv.read(Path.of(args[0]));
        String title = args.length > 2 ? args[2] : "siteflow cluster soak";
        BufferedImage img = new BufferedImage(W, TOP + 2 * PANEL_H + 20, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.drawString(title, LEFT, 24);
        double[] t = csv.column("t_s");
        panel(g, TOP, "end-to-end lag per 10-s interval (ms)", List.of(
                new Series("p50", t, csv.column("lag_p50_ms"), false, 0),
                new Series("p99", t, csv.column("lag_p99_ms"), false, 1)));
        List<Series> memory = new ArrayList<>();
        List<String> processors = csv.prefixes("_heap_after_gc_mib");
        for (int i = 0; i < processors.size(); i++) {
            String p = processors.get(i);
            memory.add(new Series(p + " RSS", t, csv.column(p + "_rss_mib"), false, 2 + i));
            memory.add(new Series(p + " heap after GC", t, csv.column(p + "_heap_after_gc_mib"), true, 2 + i));
        }
        panel(g, TOP + PANEL_H, "processor memory (MiB)", memory);
        ImageIO.write(img, "png", Path.of(args[1]).toFile());
    }

    private static void panel(Graphics2D g, int y0, String label, List<Series> series) {
        int x0 = LEFT;
        int x1 = W - RIGHT;
        int top = y0 + 30;
        int bottom = y0 + PANEL_H - 50;
        double tMax = 1;
        double vMax = 1;
        for (Series s : series) {
            for (int i = 0; i < s.t().length; i++) {
                tMax = Math.max(tMax, s.t()[i]);
                if (!Double.isNaN(s.v()[i])) {
                    vMax = Math.max(vMax, s.v()[i]);
                }
            }
        }
        double tStep = niceStep(tMax);
        double vStep = niceStep(vMax);
        tMax = Math.ceil(tMax / tStep) * tStep;
        vMax = Math.ceil(vMax / vStep) * vStep;
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.setColor(Color.BLACK);
        g.drawString(label, x0, y0 + 20);
        for (double v = 0; v <= vMax + 1e-9; v += vStep) {
            int y = (int) Math.round(bottom - v / vMax * (bottom - top));
            g.setColor(new Color(0xdddddd));
            g.drawLine(x0, y, x1, y);
            g.setColor(Color.BLACK);
            g.drawString(number(v), 8, y + 4);
        }
        for (double t = 0; t <= tMax + 1e-9; t += tStep) {
            int x = (int) Math.round(x0 + t / tMax * (x1 - x0));
            g.setColor(new Color(0xdddddd));
            g.drawLine(x, top, x, bottom);
            g.setColor(Color.BLACK);
            g.drawString(number(t), x - 10, bottom + 16);
        }
        g.drawString("seconds since the load started", (x0 + x1) / 2 - 90, bottom + 34);
        g.drawRect(x0, top, x1 - x0, bottom - top);
        int legendX = x0 + 10;
        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            g.setColor(COLORS[s.color() % COLORS.length]);
            g.setStroke(s.dashed() ? new BasicStroke(2, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1,
                    new float[] {6, 4}, 0) : new BasicStroke(2));
            int px = -1;
            int py = -1;
            for (int i = 0; i < s.t().length; i++) {
                if (Double.isNaN(s.v()[i])) {
                    px = -1;
                    continue;
                }
                int x = (int) Math.round(x0 + s.t()[i] / tMax * (x1 - x0));
                int y = (int) Math.round(bottom - s.v()[i] / vMax * (bottom - top));
                if (px >= 0) {
                    g.drawLine(px, py, x, y);
                }
                px = x;
                py = y;
            }
            g.drawLine(legendX, top + 14, legendX + 24, top + 14);
            g.setStroke(new BasicStroke(1));
            g.drawString(s.name(), legendX + 30, top + 18);
            legendX += 40 + g.getFontMetrics().stringWidth(s.name()) + 20;
        }
    }

    /** 1, 2 or 5 times a power of ten, giving 4 to 10 steps up to {@code max}. */
    static double niceStep(double max) {
        double raw = max / 6;
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        double m = raw / p;
        return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
    }

    private static String number(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%,d", (long) v) : String.format(Locale.ROOT, "%.1f", v);
    }

    /** The CSV {@link SoakSeries} writes: a header line, then rows; empty fields read as NaN. */
    record Csv(Path file, List<String> header, List<String[]> rows) {
        static Csv read(Path file) throws IOException {
            List<String> lines = Files.readAllLines(file);
            if (lines.isEmpty()) {
                throw new IOException(file + ": empty, no header line");
            }
            List<String[]> rows = new ArrayList<>();
            for (String l : lines.subList(1, lines.size())) {
                if (!l.isBlank()) {
                    rows.add(l.split(",", -1));
                }
            }
            return new Csv(file, List.of(lines.get(0).split(",")), rows);
        }

        double[] column(String name) throws IOException {
            int k = header.indexOf(name);
            if (k < 0) {
                throw new IOException(file + ": no column " + name + " in the header");
            }
            double[] v = new double[rows.size()];
            for (int i = 0; i < v.length; i++) {
                String[] r = rows.get(i);
                try {
                    v[i] = k < r.length && !r[k].isEmpty() ? Double.parseDouble(r[k]) : Double.NaN;
                } catch (NumberFormatException e) {
                    throw new IOException(file + ":" + (i + 2) + ": " + name + ": \"" + r[k] + "\" is not a number");
                }
            }
            return v;
        }

        /** The names before {@code suffix} of the columns ending with it, in order. */
        List<String> prefixes(String suffix) {
            return header.stream().filter(h -> h.endsWith(suffix))
                    .map(h -> h.substring(0, h.length() - suffix.length())).toList();
        }
    }
}
