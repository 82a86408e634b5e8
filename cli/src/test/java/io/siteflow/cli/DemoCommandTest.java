package io.siteflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DemoCommandTest {

    @Test
    void helpDescribesTheSampleWithoutAFormatWarning() {
        PrintStream stderr = System.err;
        ByteArrayOutputStream picocli = new ByteArrayOutputStream();
        CommandRun run;
        System.setErr(new PrintStream(picocli, true, StandardCharsets.UTF_8));
        try {
            run = CommandRun.of("demo", "--help");
        } finally {
            System.setErr(stderr);
        }

        assertThat(run.exitCode()).isZero();
        assertThat(run.out().replaceAll("\\s+", " ")).contains("region2 with wls3 at 93% DB share and wls4 at 80%; "
                + "the database takes 3 ms per call, so the remote servers' DB calls cost 6.5 ms + 3 ms and the local "
                + "wls1's 0.3 ms + 3 ms) in real time.");
        assertThat(picocli.toString(StandardCharsets.UTF_8)).doesNotContain("picocli WARN");
    }
}
