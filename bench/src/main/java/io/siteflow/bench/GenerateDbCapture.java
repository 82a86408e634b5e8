package io.siteflow.bench;

import io.siteflow.synth.CapturePoint;
import io.siteflow.synth.StretchedClusterScenario;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Writes the DB-heavy capture of {@code bench/db-calls.sh}: the stretched cluster seen on wls3's host, SQL round
 * trips with a 3 ms service time. Usage: {@code GenerateDbCapture FILE SECONDS}.
 */
public final class GenerateDbCapture {
    private GenerateDbCapture() {
    }

    public static void main(String[] args) throws Exception {
        StretchedClusterScenario.builder().duration(Duration.ofSeconds(Long.parseLong(args[1])))
                .capturePoint(CapturePoint.host("wls3")).dbServiceTime(Duration.ofMillis(3))
                .build().write(Path.of(args[0]));
    }
}
