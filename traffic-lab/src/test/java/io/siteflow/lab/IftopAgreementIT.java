package io.siteflow.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code iftop -t -s N -L 100 -F 10.1.0.0/16} on the router's interface during a lab run, ended by the
 * lab's nudge: its cumulative per-pair totals print every pair of the truth, each within iftop's rounding.
 */
class IftopAgreementIT {
    private static final int RUN_SECONDS = 6;
    private static final int IFTOP_SECONDS = RUN_SECONDS + 14;

    @TempDir
    Path dir;

    @Test
    void iftopCumulativeTotalsAgreeWithTheTruthWithinRounding() throws Exception {
        Path out = dir.resolve("iftop.txt");
        try (TrafficLab lab = TrafficLab.up("ifit" + ProcessHandle.current().pid() % 1_000_000,
                TrafficLab.DEFAULT_DELAY_NANOS)) {
            Process iftop = new ProcessBuilder(List.of("ip", "netns", "exec", lab.routerNamespace(), "iftop", "-i",
                    lab.agentInterface(), "-t", "-s", String.valueOf(IFTOP_SECONDS), "-L", "100", "-F",
                    LabTopology.CIDR_R1, "-n", "-N", "-B")).redirectOutput(out.toFile())
                    .redirectError(dir.resolve("iftop.err").toFile()).start();
            long started = System.nanoTime();
            try {
                // iftop writes its report to stdout only at the end; on stderr it names the interface's MAC
                // address just before it opens the capture, a second before the run's first SYN
                await("iftop starting").atMost(Duration.ofSeconds(10))
                        .until(() -> Files.readString(dir.resolve("iftop.err")).contains("MAC address is"));
                LabTruth truth = lab.run(RunSpec.of(Duration.ofSeconds(RUN_SECONDS), 0.93).withShare("wls4", 0.80));
                assertThat(System.nanoTime() - started).as("the run ended before iftop's report")
                        .isLessThan(TimeUnit.SECONDS.toNanos(IFTOP_SECONDS));
                await("iftop reported").atMost(Duration.ofSeconds(IFTOP_SECONDS + 10))
                        .pollInterval(Duration.ofMillis(500)).until(() -> {
                            lab.nudge();
                            return !iftop.isAlive();
                        });
                Map<String, IftopText.Total> iftopPairs = IftopText.cumulative(Files.readString(out));
                Map<String, long[]> truthPairs = truth.pairs();
                System.out.println("iftop: " + iftopPairs);
                assertThat(iftopPairs.keySet()).isEqualTo(truthPairs.keySet());
                truthPairs.forEach((pair, t) -> assertThat(iftopPairs.get(pair).agrees(t[1]))
                        .as("%s: truth %d, iftop %s", pair, t[1], iftopPairs.get(pair)).isTrue());
            } finally {
                iftop.destroy();
            }
        }
    }
}
