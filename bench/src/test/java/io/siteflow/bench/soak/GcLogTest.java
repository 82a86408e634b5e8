package io.siteflow.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GcLogTest {
    @Test
    void readsParallelAndG1PauseLinesInEveryUnit() {
        assertThat(GcLog.parse("[3.456s][info][gc] GC(0) Pause Young (Allocation Failure) 65M->9M(251M) 8.123ms"))
                .contains(new GcLog.Pause(8.123, 9, 251));
        assertThat(GcLog.parse("[9.1s][info][gc] GC(7) Pause Full (Ergonomics) 2G->512M(3G) 250.5ms"))
                .contains(new GcLog.Pause(250.5, 512, 3072));
        assertThat(GcLog.parse(
                "[1.0s][info][gc] GC(2) Pause Young (Normal) (G1 Evacuation Pause) 2048K->1024K(8192K) 1.5ms"))
                .contains(new GcLog.Pause(1.5, 1, 8));
    }

    @Test
    void ignoresLinesThatAreNotPauses() {
        assertThat(GcLog.parse("[0.012s][info][gc] Using Parallel")).isEmpty();
        assertThat(GcLog.parse("[5.0s][info][gc] GC(3) Concurrent Mark Cycle 12.0ms")).isEmpty();
    }

    @Test
    void takesThePausesOfEachIntervalAndKeepsTheLatestHeapAcrossQuietIntervals(@TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("gc.log");
        GcLog log = new GcLog(file);
        assertThat(log.take().pauses()).isZero(); // no file yet

        Files.writeString(file, "[0.01s][info][gc] Using Parallel\n"
                + "[1.0s][info][gc] GC(0) Pause Young (Allocation Failure) 64M->8M(245M) 4.0ms\n"
                + "[2.0s][info][gc] GC(1) Pause Young (Allocation Failure) 72M->10M(245M) 6.0ms\n"
                + "[3.0s][info][gc] GC(2) Pause Young (Alloc");
        GcLog.Interval first = log.take();
        Files.writeString(file, "ation Failure) 74M->12M(300M) 3.0ms\n", StandardOpenOption.APPEND);
        GcLog.Interval second = log.take();
        GcLog.Interval quiet = log.take();

        assertThat(first).isEqualTo(new GcLog.Interval(2, 10.0, 6.0, 10, 245));
        assertThat(second).isEqualTo(new GcLog.Interval(1, 3.0, 3.0, 12, 300));
        assertThat(quiet).isEqualTo(new GcLog.Interval(0, 0, 0, 12, 300));
        assertThat(log.all()).containsExactly(4.0, 6.0, 3.0);
    }
}
