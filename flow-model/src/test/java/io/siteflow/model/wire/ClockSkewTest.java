package io.siteflow.model.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClockSkewTest {
    private static final long NOW = 1_764_000_000_000L;

    @Test
    void allowsFiveMinutesAheadAndNotAMillisecondMore() {
        assertThat(ClockSkew.MAX_AHEAD).isEqualTo(Duration.ofMinutes(5));
        assertThat(ClockSkew.tooFarAhead(NOW + 300_000, NOW)).isFalse();
        assertThat(ClockSkew.tooFarAhead(NOW + 300_001, NOW)).isTrue();
        assertThat(ClockSkew.tooFarAhead(NOW - 86_400_000, NOW)).isFalse();
    }
}
