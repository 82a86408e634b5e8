package io.siteflow.bench.soak;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The load generator's options, validated once ({@code bench/cluster-soak.sh} passes them).
 *
 * @param bootstrap   Kafka bootstrap servers
 * @param api         base URL of one processor's HTTP API, e.g. {@code http://127.0.0.1:8080}
 * @param agents      agents simulated (distinct agent ids and servers), 1..64,000
 * @param rate        flow records per second, all agents together, &gt; 0
 * @param duration    how long records are offered
 * @param producers   Kafka producer clients the agents are spread over (agent i uses producer i % producers)
 * @param warmup      the sample at or after this time is the "after warm-up" one
 * @param settle      after the last record, how long the verdicts may take to count everything
 * @param pollMs      the pause between two readings of {@code /api/verdicts} (with the reading time, the lag's
 *                    resolution)
 * @param csv         the time series written here, one row per interval
 * @param processors  the processes sampled as processors ({@code NAME:PID:GC_LOG})
 * @param others      other processes whose RSS and CPU are sampled ({@code NAME:PID}), e.g. the brokers
 */
public record SoakOptions(String bootstrap, String api, int agents, int rate, Duration duration, int producers,
        Duration warmup, Duration settle, int pollMs, Path csv, List<Watched> processors, List<Watched> others) {
    /** The largest fleet: servers are numbered into 10.2.0.0/16 (250 per /24). */
    public static final int MAX_AGENTS = 64_000;
    /** Seconds per row of the time series. */
    public static final int INTERVAL_S = 10;

    /**
     * A process to sample.
     *
     * @param name  its label in the CSV and the report
     * @param pid   its process id
     * @param gcLog its {@code -Xlog:gc} file, or null
     */
    public record Watched(String name, long pid, Path gcLog) {
    }

    /** Parses {@code --name value} pairs; throws {@link IllegalArgumentException} naming the option. */
    public static SoakOptions parse(String... args) {
        String bootstrap = null;
        String api = null;
        int agents = 200;
        int rate = 20_000;
        Duration duration = Duration.ofMinutes(10);
        Integer producers = null;
        Duration warmup = null;
        Duration settle = Duration.ofSeconds(120);
        int pollMs = 500;
        Path csv = null;
        List<Watched> processors = new ArrayList<>();
        List<Watched> others = new ArrayList<>();
        for (int i = 0; i < args.length; i += 2) {
            String name = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name + ": missing value");
            }
            String v = args[i + 1];
            switch (name) {
                case "--bootstrap" -> bootstrap = v;
                case "--api" -> api = v;
                case "--agents" -> agents = intIn(name, v, 1, MAX_AGENTS);
                case "--rate" -> rate = intIn(name, v, 1, 10_000_000);
                case "--duration" -> duration = duration(name, v);
                case "--producers" -> producers = intIn(name, v, 1, MAX_AGENTS);
                case "--warmup" -> warmup = duration(name, v);
                case "--settle" -> settle = duration(name, v);
                case "--poll-ms" -> pollMs = intIn(name, v, 10, 60_000);
                case "--csv" -> csv = Path.of(v);
                case "--processor" -> processors.add(watched(name, v, true));
                case "--watch" -> others.add(watched(name, v, false));
                default -> throw new IllegalArgumentException(name + ": unknown option");
            }
        }
        require(bootstrap, "--bootstrap");
        require(api, "--api");
        require(csv, "--csv");
        Duration w = warmup != null ? warmup : min(Duration.ofSeconds(60), duration.dividedBy(2));
        return new SoakOptions(bootstrap, api, agents, rate, duration, producers == null ? agents : producers, w,
                settle, pollMs, csv, List.copyOf(processors), List.copyOf(others));
    }

    /**
     * A duration as the script takes it: {@code 90} or {@code 90s} seconds, {@code 10m} minutes, {@code 1h} hours.
     */
    public static Duration duration(String option, String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (t.endsWith("s")) {
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("m")) {
            unit = 60;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("h")) {
            unit = 3600;
            t = t.substring(0, t.length() - 1);
        }
        long n;
        try {
            n = Long.parseLong(t);
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n <= 0) {
            throw new IllegalArgumentException(option + ": \"" + text
                    + "\" is not a duration (a positive number of seconds, or with s, m or h: 60s, 10m, 1h)");
        }
        return Duration.ofSeconds(n * unit);
    }

    private static Watched watched(String option, String v, boolean gc) {
        String[] p = v.split(":", gc ? 3 : 2);
        if (p.length != (gc ? 3 : 2) || p[0].isEmpty()) {
            throw new IllegalArgumentException(option + ": \"" + v + "\" is not "
                    + (gc ? "NAME:PID:GC_LOG" : "NAME:PID"));
        }
        return new Watched(p[0], intIn(option, p[1], 1, Integer.MAX_VALUE), gc ? Path.of(p[2]) : null);
    }

    private static int intIn(String option, String v, int lo, int hi) {
        try {
            int n = Integer.parseInt(v.replace("_", "").replace(",", ""));
            if (n >= lo && n <= hi) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + ": \"" + v + "\" is not a number from " + lo + " to " + hi);
    }

    private static void require(Object value, String option) {
        if (value == null) {
            throw new IllegalArgumentException(option + ": required");
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
