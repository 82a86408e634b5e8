package io.siteflow.broker;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.common.utils.internals.Exit;
import org.junit.jupiter.api.Test;

class ExitGuardTest {
    @Test
    void turnsKafkaExitAndHaltIntoAnException() {
        ExitGuard guard = new ExitGuard("broker on 127.0.0.1:9092");
        try {
            assertThatThrownBy(() -> Exit.exit(1, "Fatal error during broker startup"))
                    .isInstanceOf(BrokerStartException.class)
                    .hasMessage("broker on 127.0.0.1:9092: Kafka asked to end the process with status 1 "
                            + "(Fatal error during broker startup)");
            assertThatThrownBy(() -> Exit.halt(2))
                    .hasMessage("broker on 127.0.0.1:9092: Kafka asked to end the process with status 2");
        } finally {
            guard.close();
        }
    }
}
