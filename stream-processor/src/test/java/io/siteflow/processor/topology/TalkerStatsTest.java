package io.siteflow.processor.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TalkerStatsTest {
    private static final long S = 1_764_000_000L;

    @Test
    void spreadsARecordEvenlyOverItsSecondsWithTheRemainderOnTheLast() {
        TalkerStats t = new TalkerStats();
        t.add(S * 1000, S * 1000 + 2_999, 1001, 30, 0);

        assertThat(t.newestSecond()).isEqualTo(S + 2);
        assertThat(t.outRate(S + 2, 1)).isEqualTo(335.0);
        assertThat(t.outRate(S + 2, 2)).isEqualTo(334.0);
        assertThat(t.outRate(S + 2, 10)).isEqualTo(100.1);
        assertThat(t.inRate(S + 2, 2)).isEqualTo(10.0);
        assertThat(t.outTotal()).isEqualTo(1001);
        assertThat(t.outPeak()).isEqualTo(335);
    }

    @Test
    void keepsOnlyTheLastFortySecondsPerSecondAndEverythingInTheTotals() {
        TalkerStats t = new TalkerStats();
        t.add(S * 1000, S * 1000, 100, 0, 0);
        t.add((S + 40) * 1000, (S + 40) * 1000, 50, 0, 0);
        t.add((S - 5) * 1000, (S - 5) * 1000, 7, 0, 0);

        assertThat(t.outRate(S + 40, 40)).isEqualTo(50.0 / 40);
        assertThat(t.outTotal()).isEqualTo(157);
        assertThat(t.outPeak()).isEqualTo(100);
    }

    @Test
    void readsBackWhatItWrites() {
        TalkerStats t = new TalkerStats();
        t.add(S * 1000, S * 1000 + 9_000, 12_345, 678, 1_764_000_123_456L);

        TalkerStats back = TalkerStats.fromBytes(t.toBytes());

        assertThat(back.toBytes()).isEqualTo(t.toBytes());
        assertThat(back.updatedMs()).isEqualTo(1_764_000_123_456L);
        assertThat(back.outRate(S + 9, 10)).isEqualTo(t.outRate(S + 9, 10));
        assertThatThrownBy(() -> TalkerStats.fromBytes(new byte[3]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("talker stats: expected 688 (or 680) bytes, got 3");
    }

    @Test
    void readsTheFormWithoutUpdateTimeAsNeverUpdated() {
        TalkerStats t = new TalkerStats();
        t.add(S * 1000, S * 1000 + 9_000, 12_345, 678, 1_764_000_123_456L);
        byte[] old = java.util.Arrays.copyOf(t.toBytes(), 680);

        TalkerStats back = TalkerStats.fromBytes(old);

        assertThat(back.updatedMs()).isZero();
        assertThat(back.outTotal()).isEqualTo(12_345);
        assertThat(back.outRate(S + 9, 10)).isEqualTo(t.outRate(S + 9, 10));
    }
}
