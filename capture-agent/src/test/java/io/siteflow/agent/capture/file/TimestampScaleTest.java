package io.siteflow.agent.capture.file;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TimestampScaleTest {
    @Test
    void convertsDecimalResolutions() {
        assertThat(TimestampScale.MICROS.toNanos(1_764_000_000_123_456L)).isEqualTo(1_764_000_000_123_456_000L);
        assertThat(TimestampScale.of(9, 0).toNanos(42L)).isEqualTo(42L);
        assertThat(TimestampScale.of(0, 0).toNanos(3L)).isEqualTo(3_000_000_000L);
        assertThat(TimestampScale.of(12, 0).toNanos(1_234_567L)).isEqualTo(1_234L);
    }

    @Test
    void convertsBinaryResolutionsExactly() {
        assertThat(TimestampScale.of(0x80 | 20, 0).toNanos((7L << 20) | (1L << 18))).isEqualTo(7_250_000_000L);
        assertThat(TimestampScale.of(0x80 | 30, 0).toNanos(1L)).isEqualTo(0L);
        assertThat(TimestampScale.of(0x80 | 30, 0).toNanos(1L << 29)).isEqualTo(500_000_000L);
        assertThat(TimestampScale.of(0x80 | 63, 0).toNanos(1L << 62)).isEqualTo(500_000_000L);
        assertThat(TimestampScale.of(0x80, 0).toNanos(5L)).isEqualTo(5_000_000_000L);
    }

    @Test
    void readsTimestampsAsUnsignedAndSaturatesPastTheYear2262() {
        assertThat(TimestampScale.MICROS.toNanos(-1L)).isEqualTo(Long.MAX_VALUE);
        assertThat(TimestampScale.of(9, 0).toNanos(-1L)).isEqualTo(Long.MAX_VALUE);
        assertThat(TimestampScale.of(12, 0).toNanos(-1L)).isEqualTo(Long.divideUnsigned(-1L, 1000));
        assertThat(TimestampScale.of(0x80 | 10, 0).toNanos(-1L)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void addsTheInterfaceOffsetInSeconds() {
        assertThat(TimestampScale.of(6, 1_000).toNanos(1L)).isEqualTo(1_000_000_001_000L);
        assertThat(TimestampScale.of(6, -2).toNanos(1_000_000L)).isEqualTo(-1_000_000_000L);
        assertThat(TimestampScale.of(6, Long.MAX_VALUE).toNanos(1L)).isEqualTo(Long.MAX_VALUE);
    }
}
