package io.siteflow.bench.soak;

import io.siteflow.bench.soak.SoakOptions.Watched;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The per-process columns of one row of the series: for each processor its RSS, heap after the latest GC pause,
 * committed heap, the interval's GC pauses (count, total, longest) and its CPU share of one core; for every other
 * watched process (brokers, this generator) its RSS and CPU share. Not thread-safe.
 */
final class Sampler {
    /** Columns per processor, in order. */
    static final List<String> PROCESSOR_COLUMNS = List.of("rss_mib", "heap_after_gc_mib", "heap_committed_mib",
            "gc_pauses", "gc_pause_ms", "gc_max_pause_ms", "cpu_pct");
    /** Columns per other process, in order. */
    static final List<String> OTHER_COLUMNS = List.of("rss_mib", "cpu_pct");

    private final List<Watched> processors;
    private final List<Watched> others;
    private final List<GcLog> gcLogs = new ArrayList<>();
    private final double[] lastCpu;
    private long lastNanos;

    Sampler(List<Watched> processors, List<Watched> others) {
        this.processors = List.copyOf(processors);
        List<Watched> o = new ArrayList<>(others);
        o.add(new Watched("generator", ProcessHandle.current().pid(), null));
        this.others = List.copyOf(o);
        processors.forEach(p -> gcLogs.add(new GcLog(p.gcLog())));
        this.lastCpu = new double[processors.size() + this.others.size()];
        for (int i = 0; i < lastCpu.length; i++) {
            lastCpu[i] = ProcStat.cpuSeconds(all().get(i).pid());
        }
        this.lastNanos = System.nanoTime();
    }

    List<Watched> processors() {
        return processors;
    }

    List<Watched> others() {
        return others;
    }

    /** Column names, {@code NAME_column}. */
    List<String> columns() {
        List<String> c = new ArrayList<>();
        processors.forEach(p -> PROCESSOR_COLUMNS.forEach(k -> c.add(p.name() + "_" + k)));
        others.forEach(p -> OTHER_COLUMNS.forEach(k -> c.add(p.name() + "_" + k)));
        return c;
    }

    /** One sample, in {@link #columns()} order; a process that is gone reads NaN. */
    double[] sample() throws IOException {
        long now = System.nanoTime();
        double wall = (now - lastNanos) / 1e9;
        lastNanos = now;
        double[] v = new double[columns().size()];
        int k = 0;
        int w = 0;
        for (int i = 0; i < processors.size(); i++, w++) {
            long pid = processors.get(i).pid();
            GcLog.Interval g = gcLogs.get(i).take();
            v[k++] = ProcStat.rssMiB(pid);
            v[k++] = g.heapAfterMiB();
            v[k++] = g.committedMiB();
            v[k++] = g.pauses();
            v[k++] = g.totalMs();
            v[k++] = g.maxMs();
            v[k++] = cpuPct(w, pid, wall);
        }
        for (Watched o : others) {
            v[k++] = ProcStat.rssMiB(o.pid());
            v[k++] = cpuPct(w++, o.pid(), wall);
        }
        return v;
    }

    /** Every GC pause of processor i so far, ms. */
    List<Double> pauses(int processor) {
        return gcLogs.get(processor).all();
    }

    private double cpuPct(int w, long pid, double wall) {
        double cpu = ProcStat.cpuSeconds(pid);
        double pct = wall > 0 ? (cpu - lastCpu[w]) / wall * 100 : Double.NaN;
        lastCpu[w] = cpu;
        return pct;
    }

    private List<Watched> all() {
        List<Watched> a = new ArrayList<>(processors);
        a.addAll(others);
        return a;
    }
}
