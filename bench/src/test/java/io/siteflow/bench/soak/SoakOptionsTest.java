package io.siteflow.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SoakOptionsTest {
    private static final String[] REQUIRED = {"--bootstrap", "b:1", "--api", "http://h:2", "--csv", "s.csv"};

    @Test
    void defaultsToTwoHundredAgentsAt20kForTenMinutesWithOneProducerPerAgent() {
        SoakOptions o = SoakOptions.parse(REQUIRED);

        assertThat(o.agents()).isEqualTo(200);
        assertThat(o.rate()).isEqualTo(20_000);
        assertThat(o.duration()).isEqualTo(Duration.ofMinutes(10));
        assertThat(o.producers()).isEqualTo(200);
        assertThat(o.warmup()).isEqualTo(Duration.ofSeconds(60));
        assertThat(o.settle()).isEqualTo(Duration.ofSeconds(120));
        assertThat(o.pollMs()).isEqualTo(500);
        assertThat(o.csv()).isEqualTo(Path.of("s.csv"));
    }

    @Test
    void warmsUpForHalfOfAShortRun() {
        SoakOptions o = SoakOptions.parse("--bootstrap", "b:1", "--api", "http://h:2", "--csv", "s.csv",
                "--duration", "60s", "--agents", "20", "--rate", "2000");

        assertThat(o.warmup()).isEqualTo(Duration.ofSeconds(30));
        assertThat(o.producers()).isEqualTo(20);
    }

    @Test
    void readsDurationsInSecondsMinutesAndHours() {
        assertThat(SoakOptions.duration("--d", "90")).isEqualTo(Duration.ofSeconds(90));
        assertThat(SoakOptions.duration("--d", "60s")).isEqualTo(Duration.ofSeconds(60));
        assertThat(SoakOptions.duration("--d", "10m")).isEqualTo(Duration.ofMinutes(10));
        assertThat(SoakOptions.duration("--d", "1h")).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void rejectsABadDurationNamingTheOption() {
        assertThatThrownBy(() -> SoakOptions.duration("--duration", "10 min"))
                .hasMessage("--duration: \"10 min\" is not a duration (a positive number of seconds, or with s, m or h:"
                        + " 60s, 10m, 1h)");
        assertThatThrownBy(() -> SoakOptions.duration("--duration", "0s"))
                .hasMessageStartingWith("--duration: \"0s\" is not a duration");
    }

    @Test
    void readsWatchedProcesses() {
        SoakOptions o = SoakOptions.parse("--bootstrap", "b:1", "--api", "http://h:2", "--csv", "s.csv",
                "--processor", "p1:123:/tmp/gc:1.log", "--watch", "broker1:456");

        assertThat(o.processors()).containsExactly(new SoakOptions.Watched("p1", 123, Path.of("/tmp/gc:1.log")));
        assertThat(o.others()).containsExactly(new SoakOptions.Watched("broker1", 456, null));
    }

    @Test
    void rejectsBadValuesNamingTheOption() {
        assertThatThrownBy(() -> SoakOptions.parse("--agents", "0"))
                .hasMessage("--agents: \"0\" is not a number from 1 to 64000");
        assertThatThrownBy(() -> SoakOptions.parse("--rate", "fast"))
                .hasMessage("--rate: \"fast\" is not a number from 1 to 10000000");
        assertThatThrownBy(() -> SoakOptions.parse("--processor", "p1:123"))
                .hasMessage("--processor: \"p1:123\" is not NAME:PID:GC_LOG");
        assertThatThrownBy(() -> SoakOptions.parse("--speed", "1"))
                .hasMessage("--speed: unknown option");
        assertThatThrownBy(() -> SoakOptions.parse("--api", "http://h:2", "--csv", "s.csv"))
                .hasMessage("--bootstrap: required");
        assertThatThrownBy(() -> SoakOptions.parse("--agents"))
                .hasMessage("--agents: missing value");
    }
}
