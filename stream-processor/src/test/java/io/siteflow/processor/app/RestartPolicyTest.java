package io.siteflow.processor.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RestartPolicyTest {
    private final RestartPolicy policy = new RestartPolicy();

    @Test
    void waitsLongerForEachFailureInARowAndGivesUpAfterFive() {
        List<Optional<Duration>> waits = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            waits.add(policy.failed());
        }

        assertThat(waits).containsExactly(Optional.of(Duration.ofSeconds(1)), Optional.of(Duration.ofSeconds(2)),
                Optional.of(Duration.ofSeconds(4)), Optional.of(Duration.ofSeconds(8)),
                Optional.of(Duration.ofSeconds(16)), Optional.empty());
    }

    @Test
    void startsAgainFromOneSecondOnceKafkaStreamsRan() {
        policy.failed();
        policy.failed();
        policy.running();

        assertThat(policy.inARow()).isZero();
        assertThat(policy.failed()).hasValue(Duration.ofSeconds(1));
    }
}
