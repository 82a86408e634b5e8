package io.siteflow.rules.whatif;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.rules.verdict.RttHistogram;
import io.siteflow.rules.verdict.SitePair;
import io.siteflow.rules.verdict.SitePairRtts;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A server's what-if inputs: exact while a peer site has at most {@value ServerTraffic#KEPT_FLOWS} flows, bounded
 * beyond (the largest kept, the count estimated), mergeable (days), and the same after the codec.
 */
class ServerTrafficTest {
    static final long T0 = 1_764_000_000_000L;

    static ServerTraffic.Entry entry(int srcPort, String peerSite, long bytes, long calls, long start) {
        return new ServerTraffic.Entry(new WhatIfReport.Flow("10.2.0.20", srcPort, "10.1.0.10", 1521, "DB", 0),
                peerSite, bytes, calls, start, start + 1_000);
    }

    @Test
    void sumsBytesAndCallsPerPeerSiteAndEachFlowsBytesAcrossItsRecords() {
        ServerTraffic t = ServerTraffic.bounded();
        t.add(entry(40000, "region1", 500, 3, T0));
        t.add(entry(40000, "region1", 700, 4, T0 + 10_000)); // the same flow's next record
        t.add(entry(40001, "region1", 100, 0, T0 + 5_000));
        t.add(entry(40002, "", 900, 0, T0 + 20_000)); // a peer in no site: only the span

        assertThat(t.bytesByPeerSite()).containsExactly(Map.entry("region1", 1_300L));
        assertThat(t.peer("region1").dbCalls).isEqualTo(7);
        assertThat(t.peer("region1").flows.largestFirst()).containsExactly(
                new WhatIfReport.Flow("10.2.0.20", 40000, "10.1.0.10", 1521, "DB", 1_200),
                new WhatIfReport.Flow("10.2.0.20", 40001, "10.1.0.10", 1521, "DB", 100));
        assertThat(t.peer("region1").flows.count()).isEqualTo(2);
        assertThat(t.first()).isEqualTo(T0);
        assertThat(t.last()).isEqualTo(T0 + 21_000);
    }

    @Test
    void keepsTheLargestSixtyFourFlowsAndEstimatesHowManyThereWere() {
        ServerTraffic bounded = ServerTraffic.bounded();
        ServerTraffic exact = ServerTraffic.exact();
        for (int i = 0; i < 5_000; i++) {
            bounded.add(entry(i, "region1", 1_000 + i, 0, T0));
            exact.add(entry(i, "region1", 1_000 + i, 0, T0));
        }

        assertThat(bounded.keptFlowsByPeerSite()).containsExactly(Map.entry("region1", ServerTraffic.KEPT_FLOWS));
        assertThat(exact.keptFlowsByPeerSite()).containsExactly(Map.entry("region1", 5_000));
        assertThat(bounded.bytesByPeerSite()).isEqualTo(exact.bytesByPeerSite());
        assertThat(bounded.peer("region1").flows.largestFirst())
                .isEqualTo(exact.peer("region1").flows.largestFirst().subList(0, ServerTraffic.KEPT_FLOWS));
        assertThat(exact.peer("region1").flows.count()).isEqualTo(5_000);
        assertThat(bounded.peer("region1").flows.count()).isEqualTo(5_015); // the estimate: 0.3% above
    }

    @Test
    void mergingDaysEqualsAddingTheirRecordsToOne() {
        ServerTraffic day1 = ServerTraffic.bounded();
        ServerTraffic day2 = ServerTraffic.bounded();
        ServerTraffic both = ServerTraffic.bounded();
        for (int i = 0; i < 40; i++) {
            day1.add(entry(i, "region1", 10 + i, 1, T0 + i));
            day2.add(entry(i + 20, "region2", 5, 0, T0 + 86_400_000L + i));
            day2.add(entry(i, "region1", 1, 1, T0 + 86_400_000L + i));
            both.add(entry(i, "region1", 10 + i, 1, T0 + i));
        }
        for (int i = 0; i < 40; i++) {
            both.add(entry(i + 20, "region2", 5, 0, T0 + 86_400_000L + i));
            both.add(entry(i, "region1", 1, 1, T0 + 86_400_000L + i));
        }

        day1.merge(day2);

        assertThat(WhatIfCodec.toBytes(day1)).isEqualTo(WhatIfCodec.toBytes(both));
        assertThat(day1.peer("region1").flows.count()).isEqualTo(40);
        assertThat(day1.peer("region1").dbCalls).isEqualTo(80);
        assertThat(day1.first()).isEqualTo(T0);
        assertThat(day1.last()).isEqualTo(T0 + 86_400_000L + 39 + 1_000);
    }

    @Test
    void theCodecGivesBackWhatItWasGivenBeyondTheBoundToo() {
        ServerTraffic t = ServerTraffic.bounded();
        for (int i = 0; i < 300; i++) {
            t.add(entry(i, i % 2 == 0 ? "region1" : "region3", 100 + i, i, T0 + i));
        }

        ServerTraffic back = WhatIfCodec.traffic(WhatIfCodec.toBytes(t));

        assertThat(WhatIfCodec.toBytes(back)).isEqualTo(WhatIfCodec.toBytes(t));
        assertThat(back.peer("region3").flows.count()).isEqualTo(t.peer("region3").flows.count());
        assertThat(back.peer("region3").flows.largestFirst()).isEqualTo(t.peer("region3").flows.largestFirst());
        back.add(entry(1_000, "region1", 1, 0, T0)); // the order of eviction survives: the smallest goes
        t.add(entry(1_000, "region1", 1, 0, T0));
        assertThat(WhatIfCodec.toBytes(back)).isEqualTo(WhatIfCodec.toBytes(t));
    }

    @Test
    void theRttHistogramsSurviveTheCodec() {
        SitePairRtts rtts = new SitePairRtts();
        rtts.add(SitePair.of("region2", "region1"), 6_500);
        rtts.add(SitePair.of("region1", "region2"), 6_400);
        rtts.add(SitePair.of("region2", "region2"), 300);

        SitePairRtts back = WhatIfCodec.rtts(WhatIfCodec.toBytes(rtts));
        RttHistogram h = WhatIfCodec.histogram(WhatIfCodec.toBytes(rtts.get(SitePair.of("region1", "region2"))));

        assertThat(back.histograms()).containsOnlyKeys(SitePair.of("region1", "region2"), SitePair.of("region2", "region2"));
        assertThat(back.get(SitePair.of("region1", "region2")).counts()).containsExactly(Map.entry(6_400L, 1L),
                Map.entry(6_500L, 1L));
        assertThat(h.summary()).isEqualTo(rtts.get(SitePair.of("region1", "region2")).summary());
    }

    @Test
    void unreadableBytesAreRefusedSayingWhat() {
        assertThatThrownBy(() -> WhatIfCodec.traffic(new byte[] {7}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("server traffic: not readable (1 bytes): version 7, not 1");
        assertThatThrownBy(() -> WhatIfCodec.rtts(new byte[] {1, 0}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("site-pair RTTs: not readable (2 bytes): it ends early");
    }
}
