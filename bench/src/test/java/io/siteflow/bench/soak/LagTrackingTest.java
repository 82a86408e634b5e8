package io.siteflow.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LagTrackingTest {
    private static final long MS = 1_000_000;

    @Test
    void countsARecordAtTheFirstReadingThatReachesItsRunningTotal() {
        SentLog log = new SentLog(2);
        LagStats lags = new LagStats();
        log.sent(0, 0, 100);
        log.sent(0, 10 * MS, 250);
        log.sent(1, 20 * MS, 400);

        int first = log.counted(0, 100, 300 * MS, lags);
        int none = log.counted(0, 249, 400 * MS, lags);
        int second = log.counted(0, 250, 500 * MS, lags);
        int other = log.counted(1, 400, 520 * MS, lags);

        assertThat(new int[] {first, none, second, other}).containsExactly(1, 0, 1, 1);
        assertThat(lags.count()).isEqualTo(3);
        assertThat(lags.percentile(50)).isEqualTo(490);
        assertThat(lags.max()).isEqualTo(500);
        assertThat(log.inFlight()).isZero();
    }

    @Test
    void keepsRecordsInOrderAcrossCompaction() {
        SentLog log = new SentLog(1);
        LagStats lags = new LagStats();
        for (int i = 1; i <= 1000; i++) {
            log.sent(0, i * MS, i * 10L);
            if (i % 7 == 0) {
                log.counted(0, (i - 3) * 10L, i * MS, lags);
            }
        }

        // the last reading (at 994) counted up to record 991; a record waits at most 9 ms for a reading
        assertThat(log.inFlight()).isEqualTo(9);
        assertThat(log.counted(0, 10_000, 1000 * MS, lags)).isEqualTo(9);
        assertThat(lags.count()).isEqualTo(1000);
        assertThat(lags.max()).isEqualTo(9);
    }

    @Test
    void givesNearestRankPercentilesAndTheMaximumAboveTheExactRange() {
        LagStats s = new LagStats();
        assertThat(s.percentile(50)).isEqualTo(-1);
        for (int ms = 1; ms <= 100; ms++) {
            s.add(ms);
        }
        s.add(500_000);

        assertThat(s.percentile(50)).isEqualTo(51);
        assertThat(s.percentile(99)).isEqualTo(100);
        assertThat(s.percentile(100)).isEqualTo(500_000);
        assertThat(s.max()).isEqualTo(500_000);
        s.reset();
        assertThat(s.count()).isZero();
        assertThat(s.max()).isEqualTo(-1);
    }
}
