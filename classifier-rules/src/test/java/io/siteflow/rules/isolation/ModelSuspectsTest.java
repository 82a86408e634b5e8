package io.siteflow.rules.isolation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@code MODEL_SUSPECT} rule on made-up RTT entries: region1 and region2 6.4–6.6 ms apart (reference: the largest
 * cross-site minimum), a host the model puts in region2 that answers region1 in 0.25 ms and region2 in 6.45 ms.
 */
class ModelSuspectsTest {

    private static List<ModelSuspect> suspects(HostRtt... rtts) {
        return ModelSuspects.of(Records.evaluator().classifier(), List.of(rtts));
    }

    @Test
    void findsAHostWhoseRemotePeersAreNearAndWhoseSameSitePeersAreFar() {
        assertThat(suspects(
                new HostRtt("10.2.0.20", "region1", 5, 6500),
                new HostRtt("10.2.0.21", "region1", 3, 6400),
                new HostRtt("10.1.0.10", "region2", 9, 6600),
                new HostRtt("10.2.0.40", "region1", 4, 250),
                new HostRtt("10.2.0.40", "region2", 3, 6450),
                new HostRtt("10.2.0.20", "region2", 7, 300)))
                .containsExactly(
                        new ModelSuspect("10.2.0.40", "region2", "region1", 250, 6600,
                                "10.2.0.40 (region2): handshake RTT to region1 peers 0.250 ms over 4 handshakes, under a"
                                        + " quarter of the region2-region1 reference 6.600 ms: the model may put it or its"
                                        + " peers in the wrong site"),
                        new ModelSuspect("10.2.0.40", "region2", "region2", 6450, 6600,
                                "10.2.0.40 (region2): handshake RTT to region2 peers at least 6.450 ms over 3 handshakes,"
                                        + " at least half the region2-region1 reference 6.600 ms: the model may put it in"
                                        + " the wrong site"));
    }

    @Test
    void aMisplacedHostThatLowersTheEntriesOfMostPeersDoesNotLowerTheReference() {
        // 10.2.0.40 is really in region1: each region1 host that talks to it has its region2 minimum at 0.2 ms
        assertThat(suspects(
                new HostRtt("10.2.0.20", "region1", 5, 6500),
                new HostRtt("10.2.0.40", "region1", 9, 200),
                new HostRtt("10.1.0.10", "region2", 9, 200),
                new HostRtt("10.1.0.11", "region2", 9, 210),
                new HostRtt("10.1.0.12", "region2", 9, 220)))
                .extracting(ModelSuspect::address, ModelSuspect::referenceMicros)
                .containsExactly(tuple("10.1.0.10", 6500L), tuple("10.1.0.11", 6500L), tuple("10.1.0.12", 6500L),
                        tuple("10.2.0.40", 6500L));
    }

    @Test
    void judgesOnlyEntriesOfThreeHandshakesOrMoreAndAddressesInASite() {
        assertThat(suspects(
                new HostRtt("10.2.0.20", "region1", 5, 6500),
                new HostRtt("10.2.0.40", "region1", 2, 250),
                new HostRtt("10.2.0.41", "region2", 2, 9000),
                new HostRtt("192.168.1.5", "region1", 10, 100),
                new HostRtt("not-an-address", "region1", 10, 100)))
                .isEmpty();
    }

    @Test
    void needsAReferenceBetweenTwoSites() {
        assertThat(suspects(new HostRtt("10.2.0.40", "region2", 30, 6450), new HostRtt("10.1.0.10", "region1", 3, 9000)))
                .isEmpty();
    }

    @Test
    void sameSiteAtExactlyHalfTheReferenceIsSuspectCrossSiteAtExactlyAQuarterIsNot() {
        assertThat(suspects(
                new HostRtt("10.2.0.20", "region1", 5, 4000),
                new HostRtt("10.2.0.40", "region2", 3, 2000),
                new HostRtt("10.2.0.41", "region2", 3, 1999),
                new HostRtt("10.1.0.10", "region2", 3, 4000),
                new HostRtt("10.1.0.11", "region2", 3, 1000)))
                .extracting(ModelSuspect::address, ModelSuspect::peerSite)
                .containsExactly(tuple("10.2.0.40", "region2"));
    }

    @Test
    void nothingUnderOneMillisecondIsSuspectOfBeingFarNorAnythingAboveItOfBeingNear() {
        // two availability domains 0.6 ms apart: a same-site peer at 0.4 ms is not far, a remote one at 0.1 ms is near
        assertThat(suspects(
                new HostRtt("10.2.0.20", "region1", 5, 600),
                new HostRtt("10.2.0.21", "region1", 5, 610),
                new HostRtt("10.2.0.22", "region1", 5, 620),
                new HostRtt("10.2.0.40", "region2", 3, 400),
                new HostRtt("10.1.0.10", "region2", 3, 100)))
                .extracting(ModelSuspect::address, ModelSuspect::minRttMicros, ModelSuspect::referenceMicros)
                .containsExactly(tuple("10.1.0.10", 100L, 620L));
        // sites 40 ms apart: a remote peer at 5 ms is under a quarter but not under 1 ms
        assertThat(suspects(new HostRtt("10.2.0.20", "region1", 5, 40_000), new HostRtt("10.1.0.10", "region2", 3, 5000)))
                .isEmpty();
    }

    @Test
    void theRecordsRttCountsForBothEndsWhenBothAreInASite() {
        IsolationEvaluator e = Records.evaluator();
        var r = Records.handshake("10.2.0.20", "10.1.0.10", 6500);
        var outside = Records.handshake("192.168.1.5", "10.1.0.10", 6500);

        assertThat(IsolationInputsBuilder.rtts(r, e.classifier().classify(r))).containsExactly(
                new HostRtt("10.2.0.20", "region1", 1, 6500), new HostRtt("10.1.0.10", "region2", 1, 6500));
        assertThat(IsolationInputsBuilder.rtts(outside, e.classifier().classify(outside))).isEmpty();
    }

    @Test
    void theReportCarriesTheSuspectsOfItsRecords() {
        // both ends of the 0.25 ms handshakes are suspect: which one the model misplaces, the RTT cannot say
        IsolationInputsBuilder b = new IsolationInputsBuilder(Records.evaluator());
        for (int i = 0; i < 3; i++) {
            b.add(Records.handshake("10.2.0.20", "10.1.0.10", 6500 + i));
            b.add(Records.handshake("10.2.0.21", "10.1.0.10", 6400 + i));
            b.add(Records.handshake("10.2.0.40", "10.1.0.11", 250 + i));
        }
        IsolationReport r = IsolationReport.of(b.build(1000, 1001, List.of()));

        assertThat(r.modelSuspects()).extracting(ModelSuspect::address, ModelSuspect::peerSite,
                        ModelSuspect::minRttMicros, ModelSuspect::referenceMicros)
                .containsExactly(tuple("10.1.0.11", "region2", 250L, 6500L),
                        tuple("10.2.0.40", "region1", 250L, 6500L));
    }
}
