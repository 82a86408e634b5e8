package io.siteflow.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Where this JVM's CPU went during a timed phase: the whole process, the JIT compiler and GC threads (from
 * {@code /proc/self/task}, Linux; they are not Java threads) and the Kafka Streams stream threads (from
 * {@link ThreadMXBean}); the rest is the broker, the clients' network threads and the benchmark itself.
 * {@link #take()} before and after; {@link #since} reports the difference. Immutable.
 */
record ThreadCpu(double process, double jit, double gc, double stream) {

    /** The CPU seconds used so far. */
    static ThreadCpu take() {
        double jit = 0;
        double gc = 0;
        double process = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path t : tasks) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    double cpu = (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // utime + stime, USER_HZ
                    process += cpu;
                    if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
                        jit += cpu;
                    } else if (name.startsWith("GC Thread") || name.startsWith("G1 ")) {
                        gc += cpu;
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return new ThreadCpu(0, 0, 0, 0);
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        double stream = 0;
        for (var info : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (info != null && info.getThreadName().matches(".*-StreamThread-\\d+")) {
                stream += Math.max(0, mx.getThreadCpuTime(info.getThreadId())) / 1e9;
            }
        }
        return new ThreadCpu(process, jit, gc, stream);
    }

    /** CPU seconds from {@code before} to this snapshot, as one line. */
    String since(ThreadCpu before, double wallSeconds) {
        double p = process - before.process;
        double j = jit - before.jit;
        double g = gc - before.gc;
        double s = stream - before.stream;
        return String.format(Locale.ROOT, "%.1f cpu-s in %.1f s: stream threads %.1f (%.0f%%), JIT compiler %.1f "
                + "(%.0f%%), GC %.1f (%.0f%%), broker, clients and the rest %.1f (%.0f%%)", p, wallSeconds,
                s, 100 * s / p, j, 100 * j / p, g, 100 * g / p, p - s - j - g, 100 * (p - s - j - g) / p);
    }
}
