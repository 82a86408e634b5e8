package io.siteflow.bench.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process's resident memory and CPU time from {@code /proc/PID/status} and {@code /proc/PID/stat} (Linux).
 * Stateless.
 */
final class ProcStat {
    /** {@code getconf CLK_TCK} on Linux. */
    static final int TICKS_PER_SECOND = 100;

    private ProcStat() {
    }

    /** {@code VmRSS} in MiB; NaN when the process is gone. */
    static double rssMiB(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return Double.NaN;
        }
        return Double.NaN;
    }

    /** User plus system CPU seconds of the process (all its threads); NaN when it is gone. */
    static double cpuSeconds(long pid) {
        try {
            return cpuSecondsOf(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
        } catch (IOException e) {
            return Double.NaN;
        }
    }

    /** utime + stime (fields 14 and 15) of a {@code /proc/PID/stat} line, in seconds. */
    static double cpuSecondsOf(String stat) {
        // the command name (field 2) may hold spaces and parentheses: count fields after its last ')'
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / (double) TICKS_PER_SECOND;
    }
}
