package io.siteflow.processor.topology;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TopologyConfigTest {
    private static final TopologyConfig D = TopologyConfig.DEFAULTS;

    @Test
    void rejectsAWindowThatIsNotPositive() {
        assertThatThrownBy(() -> D.withWindow(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("window must be positive, got PT0S");
    }

    @Test
    void rejectsANegativeGrace() {
        assertThatThrownBy(() -> D.withWindow(Duration.ofMinutes(1), Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("grace must not be negative, got PT-1S");
    }

    @Test
    void rejectsAHistoryShorterThanAWindow() {
        assertThatThrownBy(() -> D.withWindow(Duration.ofDays(2), Duration.ZERO).withHistoryRetention(Duration.ofDays(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("history retention PT24H is shorter than the window PT48H");
    }

    @Test
    void rejectsABlankApplicationId() {
        assertThatThrownBy(() -> D.withApplicationId(" "))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("application id must not be blank");
    }
}
