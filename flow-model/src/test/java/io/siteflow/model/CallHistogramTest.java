package io.siteflow.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fixed DB call buckets: edges, width, percentiles, merging. */
class CallHistogramTest {

    @Test
    void putsATimeInTheBucketWhoseEdgesHoldIt() {
        assertThat(CallHistogram.bucketOf(0)).isZero();
        assertThat(CallHistogram.bucketOf(-5)).isZero();
        assertThat(CallHistogram.bucketOf(1)).isEqualTo(1);
        assertThat(CallHistogram.bucketOf(6_500)).isEqualTo(444);
        assertThat(CallHistogram.bucketOf(9_500)).isEqualTo(463);
        assertThat(CallHistogram.bucketOf(Long.MAX_VALUE)).isEqualTo(CallHistogram.LAST);
        for (long v = 1; v < 50_000_000; v = v * 3 / 2 + 1) {
            int b = CallHistogram.bucketOf(v);
            assertThat(CallHistogram.lowerBound(b)).isLessThanOrEqualTo(v);
            assertThat(CallHistogram.lowerBound(b + 1)).isGreaterThan(v);
        }
    }

    @Test
    void keepsEveryPercentileWithinOnePercentOfTheTimePlusRoundingToWholeMicroseconds() {
        for (long v = 1; v < 100_000_000; v = v * 11 / 10 + 7) {
            long p50 = CallHistogram.of(Map.of(CallHistogram.bucketOf(v), 1L)).percentile(50);
            assertThat((double) Math.abs(p50 - v)).as("%d µs reads as %d", v, p50).isLessThanOrEqualTo(0.01 * v + 0.5);
        }
    }

    @Test
    void givesNearestRankPercentilesOverMergedHistograms() {
        CallHistogram a = CallHistogram.of(Map.of(CallHistogram.bucketOf(6_500), 3L));
        CallHistogram b = CallHistogram.of(Map.of(CallHistogram.bucketOf(9_500), 1L, 0, 1L));

        CallHistogram sum = a.plus(b);

        assertThat(sum.total()).isEqualTo(5);
        assertThat(sum.toMap()).containsExactly(Map.entry(0, 1L), Map.entry(444, 3L), Map.entry(463, 1L));
        assertThat(sum.percentile(50)).isEqualTo(6_519);
        assertThat(sum.percentile(99)).isEqualTo(9_497);
        assertThat(sum.percentile(20)).isZero();
        assertThat(CallHistogram.EMPTY.percentile(50)).isZero();
        assertThat(CallHistogram.EMPTY.plus(a)).isEqualTo(a);
    }

    @Test
    void rejectsBucketsOutOfRangeAndEmptyCounts() {
        assertThatThrownBy(() -> CallHistogram.of(Map.of(1049, 1L))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bucket 1049 is out of range (0-1048)");
        assertThatThrownBy(() -> CallHistogram.of(Map.of(3, 0L))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bucket 3: count 0 is below 1");
    }
}
