package io.siteflow.rules.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MeasuresTest {
    private static final long M = 60_000L;
    private static final long T0 = 1_764_000_000_000L;

    @Test
    void rttPercentilesAreNearestRank() {
        RttHistogram h = new RttHistogram();
        for (long v = 100; v >= 1; v--) {
            h.add(v * 100);
        }

        assertThat(h.summary()).isEqualTo(new RttSummary(5000, 9500, 10000, 100));
    }

    @Test
    void rttHistogramStaysBoundedAndCloseAfterManyDistinctValues() {
        RttHistogram h = new RttHistogram();
        for (long v = 1; v <= 100_000; v++) {
            h.add(v);
        }

        assertThat(h.counts()).hasSizeLessThanOrEqualTo(20_000);
        assertThat(h.summary()).isEqualTo(new RttSummary(50_000, 95_000, 100_000, 100_000));
        assertThat(RttHistogram.round(123_456)).isEqualTo(123_400);
        assertThat(RttHistogram.round(9_999)).isEqualTo(9_999);
    }

    @Test
    void mergedRttHistogramsEqualOneFedEverything() {
        RttHistogram a = new RttHistogram();
        RttHistogram b = new RttHistogram();
        RttHistogram all = new RttHistogram();
        for (long v = 1; v <= 50; v++) {
            (v % 3 == 0 ? a : b).add(v * 7);
            all.add(v * 7);
        }
        a.merge(b);

        assertThat(a.summary()).isEqualTo(all.summary());
    }

    @Test
    void countsDbConnectionsOpenInEachMinute() {
        DbConnections c = new DbConnections();
        // minute 0..2: conn a; minute 1: conn b; minute 1..4: conn c (two records with an idle gap)
        c.add("a", T0, T0 + 2 * M + 5);
        c.add("b", T0 + M + 1, T0 + M + 2);
        c.add("c", T0 + M + 10, T0 + M + 20);
        c.add("c", T0 + 4 * M, T0 + 4 * M + 1);

        // minutes: 0 -> 1, 1 -> 3, 2 -> 2, 3 -> 1, 4 -> 1; sorted 1,1,1,2,3: lower median 1, max 3
        assertThat(c.summary(null)).isEqualTo(new DbConnectionSummary(1, 3));
        // clipped to minute 1..2: counts 3, 2
        assertThat(c.summary(new Window(T0 + M, T0 + 3 * M))).isEqualTo(new DbConnectionSummary(2, 3));
        assertThat(new DbConnections().summary(null)).isEqualTo(DbConnectionSummary.NONE);
    }

    @Test
    void minutesWithoutAnyConnectionCountAsZero() {
        DbConnections c = new DbConnections();
        c.add("a", T0, T0 + 1);
        c.add("b", T0 + 3 * M, T0 + 3 * M + 1);

        // minutes 0..3: 1, 0, 0, 1 -> lower median 0
        assertThat(c.summary(null)).isEqualTo(new DbConnectionSummary(0, 1));
    }

    @Test
    void windowsAreEpochAlignedAndHoldTheirStart() {
        assertThat(Window.of(T0 + 59_999, M)).isEqualTo(new Window(T0, T0 + M));
        assertThat(Window.of(T0 + M, M)).isEqualTo(new Window(T0 + M, T0 + 2 * M));
    }

    @Test
    void keepsTheLargestFlowsSummedPerFlow() {
        TopFlows t = new TopFlows();
        for (int i = 0; i < 100; i++) {
            t.add(new TopFlow(6, "10.2.0.20", 40000 + i, "10.1.0.11", 7001, "t3",
                    io.siteflow.rules.model.Category.CLUSTER, "r", i));
        }
        t.add(new TopFlow(6, "10.2.0.20", 40099, "10.1.0.11", 7001, "t3", io.siteflow.rules.model.Category.CLUSTER, "r", 1));

        assertThat(t.top(3)).extracting(TopFlow::srcPort, TopFlow::bytes)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(40099, 100L),
                        org.assertj.core.groups.Tuple.tuple(40098, 98L), org.assertj.core.groups.Tuple.tuple(40097, 97L));
        assertThat(t.all()).hasSize(TopFlows.CAPACITY);
    }
}
