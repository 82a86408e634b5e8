package io.siteflow.bench.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The cluster soak's load generator and meter ({@code bench/cluster-soak.sh}). {@code SoakLoad sites N FILE}
 * writes the fleet's site model; {@code SoakLoad run OPTIONS} ({@link SoakOptions}) stands for N agents sending
 * flow records and heartbeats ({@link AgentProducers}) while this thread reads the cumulative verdicts every
 * {@code --poll-ms} ({@link VerdictPoller}): a record's lag is from its {@code send()} to the first reading that
 * counts it ({@link SentLog}). Every 10 s a timer thread writes a row of lag, memory, GC and CPU to the CSV
 * ({@link SoakSeries}).
 * After the load, it waits up to {@code --settle} for the verdicts to count every acknowledged record, prints the
 * report ({@link SoakReport}) on standard output and exits 0 when the records counted equal the records
 * acknowledged (per server, records and bytes), 1 when not, 64 on wrong usage.
 */
public final class SoakLoad {
    private final SoakOptions o;
    private final SoakFleet fleet;
    private final SentLog log;
    private final VerdictPoller poller;
    private final Sampler sampler;
    private final LagStats interval = new LagStats();
    private final LagStats whole = new LagStats();
    private volatile VerdictPoller.Totals last;
    private long lastAcked;
    private volatile long pollErrors;
    private volatile String lastPollError;
    private long readings;
    private long readingNanos;
    private long slowestReadingNanos;

    private SoakLoad(SoakOptions o) {
        this.o = o;
        this.fleet = new SoakFleet(o.agents(), Long.toString(System.currentTimeMillis(), 36));
        this.log = new SentLog(o.agents());
        this.poller = new VerdictPoller(o.api(), fleet);
        this.sampler = new Sampler(o.processors(), o.others());
        this.last = new VerdictPoller.Totals(new long[o.agents()], new long[o.agents()], 0);
    }

    public static void main(String[] args) throws Exception {
        SoakOptions o;
        try {
            if (args.length == 3 && args[0].equals("sites")) {
                Files.writeString(Path.of(args[2]), new SoakFleet(Integer.parseInt(args[1]), "-").sitesYaml(),
                        StandardCharsets.UTF_8);
                return;
            }
            if (args.length == 0 || !args[0].equals("run")) {
                throw new IllegalArgumentException("usage: SoakLoad sites N FILE | SoakLoad run --bootstrap B --api URL"
                        + " --csv FILE [--agents N] [--rate R] [--duration D] [--producers P] [--warmup D]"
                        + " [--settle D] [--poll-ms MS] [--processor NAME:PID:GC_LOG]... [--watch NAME:PID]...");
            }
            o = SoakOptions.parse(Arrays.copyOfRange(args, 1, args.length));
        } catch (IllegalArgumentException e) {
            System.err.println("soak: " + e.getMessage());
            System.exit(64);
            return;
        }
        System.exit(new SoakLoad(o).run() ? 0 : 1);
    }

    private boolean run() throws IOException, InterruptedException {
        try (SoakSeries series = new SoakSeries(o.csv(), sampler.columns());
                AgentProducers agents = new AgentProducers(o.bootstrap(), o.producers(), fleet, log)) {
            Thread load = new Thread(() -> agents.run(o.rate(), o.duration()), "soak-load");
            agents.connect();
            long t0 = System.nanoTime();
            row(series, agents, t0, "start");
            load.start();
            // rows on their own timer: a slow verdict reading must not stretch an interval
            ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
            timer.scheduleAtFixedRate(() -> timedRow(series, agents, t0, load), SoakOptions.INTERVAL_S,
                    SoakOptions.INTERVAL_S, TimeUnit.SECONDS);
            long settleEnd = Long.MAX_VALUE;
            double loadEnded = 0;
            while (true) {
                poll();
                long now = System.nanoTime();
                if (!load.isAlive() && settleEnd == Long.MAX_VALUE) {
                    settleEnd = now + o.settle().toNanos();
                    loadEnded = (now - t0) / 1e9;
                }
                if (settleEnd != Long.MAX_VALUE && (agents.produced().allCounted(last) || now >= settleEnd)) {
                    break;
                }
                Thread.sleep(o.pollMs());
            }
            timer.shutdown();
            timer.awaitTermination(1, TimeUnit.MINUTES);
            row(series, agents, t0, "end");
            SoakReport.Readings r = new SoakReport.Readings(readings, readingNanos / 1e6 / Math.max(1, readings),
                    slowestReadingNanos / 1e6, pollErrors, lastPollError);
            SoakReport report = new SoakReport(o, agents.produced(), last, whole, series.rows(), loadEnded,
                    sampler.processors(), sampler.others(), sampler::pauses, r);
            System.out.print(report.text());
            return report.equal();
        }
    }

    private void poll() throws InterruptedException {
        VerdictPoller.Totals t;
        long asked = System.nanoTime();
        try {
            t = poller.read();
        } catch (IOException e) {
            pollErrors++;
            lastPollError = e.getMessage();
            return;
        }
        long now = System.nanoTime();
        readings++;
        readingNanos += now - asked;
        slowestReadingNanos = Math.max(slowestReadingNanos, now - asked);
        synchronized (interval) {
            for (int i = 0; i < fleet.agents(); i++) {
                log.counted(i, t.crossBytes()[i], now, interval, whole);
            }
        }
        last = t;
    }

    private void timedRow(SoakSeries series, AgentProducers agents, long t0, Thread load) {
        try {
            row(series, agents, t0, load.isAlive() ? "load" : "settle");
            progress(agents, t0);
        } catch (IOException | RuntimeException e) {
            System.err.println("soak: a row of the series was not written: " + e);
        }
    }

    /** Samples and writes one row; the timer thread and, before and after it runs, the main thread call it. */
    private synchronized void row(SoakSeries series, AgentProducers agents, long t0, String phase)
            throws IOException {
        long acked = agents.acked();
        double t = (System.nanoTime() - t0) / 1e9;
        double dt = series.rows().isEmpty() ? 0 : t - series.rows().get(series.rows().size() - 1).t();
        double[] processes = sampler.sample();
        synchronized (interval) {
            series.add(new SoakSeries.Row(t, phase, agents.offered(), acked, last.records(),
                    dt > 0 ? (acked - lastAcked) / dt : 0, interval.count(), interval.percentile(50),
                    interval.percentile(99), interval.max(), processes));
            interval.reset();
        }
        lastAcked = acked;
    }

    private void progress(AgentProducers agents, long t0) {
        System.err.printf(Locale.ROOT, "soak: %4.0f s: %,d acknowledged, %,d counted, %,d in flight%s%n",
                (System.nanoTime() - t0) / 1e9, agents.acked(), last.records(), log.inFlight(),
                pollErrors == 0 ? "" : ", " + pollErrors + " failed verdict reads (last: " + lastPollError + ")");
    }
}
