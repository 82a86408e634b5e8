package io.siteflow.rules.isolation;

import static io.siteflow.rules.isolation.Records.tcp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.isolation.PairState.State;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link IsolationInputsBuilder} and {@link IsolationReport#of}: edges, one observer per edge, pairs, their states. */
class IsolationReportTest {
    private static final String WLS3 = "10.2.0.20";
    private static final String DB1 = "10.1.0.10";
    private static final String WLS1 = "10.1.0.21";
    private static final String UNLISTED = "10.2.0.99";

    /** T3 on the DB port (1 000 B), TNS on 1522 (3 000 B), an unlisted host to the DB (2 000 B), allowed traffic. */
    private static IsolationInputsBuilder traffic() {
        IsolationInputsBuilder b = new IsolationInputsBuilder(Records.evaluator());
        b.add(tcp("edge", WLS3, DB1, 1521, "oracle-tns", 50_000, 50, 900_000, 600, 1000, 2000, true));
        b.add(tcp("edge", WLS3, DB1, 1521, "t3", 600, 4, 400, 3, 1500, 1600, true));
        b.add(tcp("edge", WLS3, DB1, 1522, "oracle-tns", 1000, 5, 2000, 5, 3000, 3100, true));
        b.add(tcp("edge", UNLISTED, DB1, 1521, "oracle-tns", 1200, 6, 800, 5, 2500, 2600, true));
        b.add(tcp("edge", WLS3, WLS1, 7001, "t3", 10_000, 20, 10_000, 20, 1200, 4000, true));
        return b;
    }

    @Test
    void sumsAnEdgesViolatingAndAllowedRecordsApartSoT3OnTheDatabasePortIsNotHidden() {
        IsolationInputs in = traffic().build(1000, 4001, List.of());

        assertThat(in.edges()).extracting(IsolationEdge::entryKey, IsolationEdge::decision, IsolationEdge::rule,
                        IsolationEdge::bytes, IsolationEdge::firstSeenMs, IsolationEdge::lastSeenMs)
                .containsExactly(
                        tuple("10.2.0.20|10.1.0.10|1521|6|allowed", Decision.ALLOWED, "app-db", 950_000L, 1000L, 2000L),
                        tuple("10.2.0.20|10.1.0.10|1521|6|violating", Decision.DENIED, "no-t3-to-db", 1000L, 1500L,
                                1600L),
                        tuple("10.2.0.20|10.1.0.10|1522|6|violating", Decision.UNLISTED, "", 3000L, 3000L, 3100L),
                        tuple("10.2.0.20|10.1.0.21|7001|6|allowed", Decision.ALLOWED, "soa-cluster", 20_000L, 1200L,
                                4000L),
                        tuple("10.2.0.99|10.1.0.10|1521|6|violating", Decision.UNLISTED, "", 2000L, 2500L, 2600L));
    }

    @Test
    void sumsTheRecordsOfAnEdgeFromItsFirstObserverOnlyAndKeepsAllowedEdges() {
        IsolationInputsBuilder b = new IsolationInputsBuilder(Records.evaluator());
        b.add(tcp("host-wls3", WLS3, DB1, 1522, "oracle-tns", 100, 2, 200, 2, 1000, 1500, false));
        b.add(tcp("edge", WLS3, DB1, 1522, "oracle-tns", 100, 2, 200, 2, 1000, 1500, false));
        b.add(tcp("host-wls3", WLS3, DB1, 1522, "oracle-tns", 40, 1, 60, 1, 1600, 2500, true));
        b.add(tcp("host-wls3", WLS3, DB1, 1521, "oracle-tns", 500, 5, 500, 5, 900, 950, false));

        IsolationInputs in = b.build(900, 2501, List.of());

        assertThat(b.records()).isEqualTo(4);
        assertThat(b.otherObserverRecords()).isEqualTo(1);
        assertThat(in.edges()).extracting(IsolationEdge::key, IsolationEdge::observer, IsolationEdge::decision,
                        IsolationEdge::bytes, IsolationEdge::packets, IsolationEdge::flowsReported,
                        IsolationEdge::firstSeenMs, IsolationEdge::lastSeenMs)
                .containsExactly(
                        tuple("10.2.0.20|10.1.0.10|1521|6", "host-wls3", Decision.ALLOWED,
                                1000L, 10L, 1L, 900L, 950L),
                        tuple("10.2.0.20|10.1.0.10|1522|6", "host-wls3",
                                Decision.UNLISTED, 400L, 6L, 1L, 1000L, 2500L));
        assertThat(in.fromMs()).isEqualTo(900);
        assertThat(in.toMs()).isEqualTo(2501);
    }

    @Test
    void twoExportersBehindOneCollectorAreTwoObserversOfAnEdgeAndTheFirstCounts() {
        IsolationInputsBuilder b = new IsolationInputsBuilder(Records.evaluator());
        b.add(exported(tcp("collector", WLS3, DB1, 1522, "oracle-tns", 100, 2, 200, 2, 1000, 1500, false), "192.0.2.1"));
        b.add(exported(tcp("collector", WLS3, DB1, 1522, "oracle-tns", 100, 2, 200, 2, 1000, 1500, false), "192.0.2.2"));
        b.add(exported(tcp("collector", WLS3, DB1, 1522, "oracle-tns", 40, 1, 60, 1, 1600, 2500, true), "192.0.2.1"));

        IsolationInputs in = b.build(900, 2501, List.of());

        assertThat(b.otherObserverRecords()).as("the second exporter's copy of the same traffic").isEqualTo(1);
        assertThat(in.edges()).extracting(IsolationEdge::key, IsolationEdge::observer, IsolationEdge::bytes,
                        IsolationEdge::packets)
                .containsExactly(tuple("10.2.0.20|10.1.0.10|1522|6", "collector@192.0.2.1", 400L, 6L));
    }

    private static FlowRecord exported(FlowRecord r, String exporter) {
        return r.toBuilder().exporter(exporter, 0L).build();
    }

    @Test
    void listsViolationsByBytesAndMarksEachGroupPairWithTheBytesThatViolateIt() {
        IsolationReport r = IsolationReport.of(traffic().build(1000, 4001, List.of()));

        assertThat(r.violations()).extracting(IsolationEdge::key, IsolationEdge::decision, IsolationEdge::rule,
                        IsolationEdge::bytes, IsolationEdge::packets)
                .containsExactly(
                        tuple("10.2.0.20|10.1.0.10|1522|6", Decision.UNLISTED, "", 3000L, 10L),
                        tuple("10.2.0.99|10.1.0.10|1521|6", Decision.UNLISTED, "", 2000L, 11L),
                        tuple("10.2.0.20|10.1.0.10|1521|6", Decision.DENIED, "no-t3-to-db", 1000L, 7L));
        assertThat(r.pairs()).containsExactly(
                new PairState("unlisted", "unlisted", State.ISOLATED, 0),
                new PairState("unlisted", "soa", State.ISOLATED, 0),
                new PairState("unlisted", "db", State.NOT_ISOLATED, 2000),
                new PairState("soa", "unlisted", State.ISOLATED, 0),
                new PairState("soa", "soa", State.ISOLATED, 0),
                new PairState("soa", "db", State.NOT_ISOLATED, 4000),
                new PairState("db", "unlisted", State.ISOLATED, 0),
                new PairState("db", "soa", State.ISOLATED, 0),
                new PairState("db", "db", State.ISOLATED, 0));
        assertThat(r.violated()).isTrue();
        assertThat(r.policyVersion()).isEqualTo(Records.evaluator().policy().version());
        assertThat(r.modelVersion()).isEqualTo(Records.evaluator().classifier().model().version());
    }

    @Test
    void anEdgeAgentNotHeardInFullMakesEveryPairWithoutViolationUnverifiedNeverIsolated() {
        Unverified edge = new Unverified("edge", Optional.empty(), "silent from 09:00 to 09:05");
        IsolationReport r = IsolationReport.of(traffic().build(1000, 4001, List.of(edge)));

        assertThat(r.pairs()).extracting(p -> p.from() + "->" + p.to() + " " + p.state()).containsExactly(
                "unlisted->unlisted UNVERIFIED", "unlisted->soa UNVERIFIED", "unlisted->db NOT_ISOLATED",
                "soa->unlisted UNVERIFIED", "soa->soa UNVERIFIED", "soa->db NOT_ISOLATED",
                "db->unlisted UNVERIFIED", "db->soa UNVERIFIED", "db->db UNVERIFIED");
        assertThat(r.unverified()).containsExactly(edge);
    }

    @Test
    void aHostAgentNotHeardInFullMakesThePairsOfItsHostsGroupsUnverified() {
        IsolationInputsBuilder quiet = new IsolationInputsBuilder(Records.evaluator());
        quiet.add(tcp("edge", WLS3, DB1, 1521, "oracle-tns", 500, 5, 500, 5, 1000, 2000, true));

        IsolationReport wls3 = IsolationReport.of(quiet.build(1000, 2001,
                List.of(new Unverified("host-wls3", Optional.of(WLS3), "dropped 0.5% of its packets"))));
        IsolationReport unlisted = IsolationReport.of(quiet.build(1000, 2001,
                List.of(new Unverified("host-x", Optional.of(UNLISTED), "silent"))));
        IsolationReport notAnAddress = IsolationReport.of(quiet.build(1000, 2001,
                List.of(new Unverified("host-y", Optional.of("wls9"), "silent"))));

        assertThat(wls3.pairs()).extracting(p -> p.from() + "->" + p.to() + " " + p.state()).containsExactly(
                "unlisted->unlisted ISOLATED", "unlisted->soa UNVERIFIED", "unlisted->db ISOLATED",
                "soa->unlisted UNVERIFIED", "soa->soa UNVERIFIED", "soa->db UNVERIFIED",
                "db->unlisted ISOLATED", "db->soa UNVERIFIED", "db->db ISOLATED");
        assertThat(unlisted.pairs()).extracting(p -> p.from() + "->" + p.to() + " " + p.state()).containsExactly(
                "unlisted->unlisted UNVERIFIED", "unlisted->soa UNVERIFIED", "unlisted->db UNVERIFIED",
                "soa->unlisted UNVERIFIED", "soa->soa ISOLATED", "soa->db ISOLATED",
                "db->unlisted UNVERIFIED", "db->soa ISOLATED", "db->db ISOLATED");
        assertThat(notAnAddress.pairs()).extracting(PairState::state).containsOnly(State.UNVERIFIED);
        assertThat(wls3.violated()).isFalse();
    }

    @Test
    void aViolationCarriesTheNearestAllowRulesFailedConditionsAndAnAllowedEdgeNone() {
        IsolationInputs in = traffic().build(1000, 4001, List.of());

        assertThat(in.edges()).extracting(IsolationEdge::entryKey, IsolationEdge::nearestAllow).containsExactly(
                tuple("10.2.0.20|10.1.0.10|1521|6|allowed", Optional.empty()),
                tuple("10.2.0.20|10.1.0.10|1521|6|violating", Optional.of(new NearestAllow("app-db",
                        List.of("l7: t3 not in [oracle-tns]")))), // soa-cluster fails one too (to): the first wins
                tuple("10.2.0.20|10.1.0.10|1522|6|violating", Optional.of(new NearestAllow("app-db",
                        List.of("ports: 1522 not in [1521]")))),
                tuple("10.2.0.20|10.1.0.21|7001|6|allowed", Optional.empty()),
                tuple("10.2.0.99|10.1.0.10|1521|6|violating", Optional.of(new NearestAllow("app-db",
                        List.of("from: 10.2.0.99 (unlisted) not in [soa]")))));
    }

    @Test
    void aViolationWithAnEndInNoGroupHasAPairOfItsOwnInsteadOfNone() {
        String model = Records.MODEL.replace("  - { address: 10.1.0.10, name: db1, role: db }\n",
                "  - { address: 10.1.0.10, name: db1, role: db }\n  - { address: 10.1.0.5, name: admin1, role: admin }\n");
        IsolationEvaluator e = new IsolationEvaluator(new io.siteflow.rules.classify.Classifier(
                io.siteflow.rules.load.SiteModelLoader.parse("sites.yaml", model).model().orElseThrow()));
        IsolationInputsBuilder b = new IsolationInputsBuilder(e);
        b.add(tcp("edge", WLS3, "10.1.0.5", 22, "unknown", 3000, 20, 4000, 20, 1000, 2000, true));

        IsolationReport r = IsolationReport.of(b.build(1000, 2001, List.of()));

        assertThat(r.violations()).extracting(IsolationEdge::key, IsolationEdge::fromGroups, IsolationEdge::toGroups)
                .containsExactly(tuple("10.2.0.20|10.1.0.5|22|6", List.of("soa"), List.of()));
        assertThat(r.pairs()).extracting(PairState::from).containsExactly("unlisted", "unlisted", "unlisted",
                "unlisted", "soa", "soa", "soa", "soa", "db", "db", "db", "db", IsolationReport.NO_GROUP,
                IsolationReport.NO_GROUP, IsolationReport.NO_GROUP, IsolationReport.NO_GROUP);
        assertThat(r.pair("soa", IsolationReport.NO_GROUP)).contains(
                new PairState("soa", IsolationReport.NO_GROUP, State.NOT_ISOLATED, 7000));
        assertThat(r.pairs()).filteredOn(p -> p.state() == State.NOT_ISOLATED).hasSize(1);
        assertThat(IsolationReport.of(traffic().build(1000, 4001, List.of())).pairs())
                .noneMatch(p -> p.from().equals(IsolationReport.NO_GROUP)); // only when a violation needs it
    }

    @Test
    void nothingSeenIsIsolatedEverywhere() {
        IsolationReport r = IsolationReport.of(new IsolationInputsBuilder(Records.evaluator()).build(0, 0, List.of()));

        assertThat(r.pairs()).hasSize(9).extracting(PairState::state).containsOnly(State.ISOLATED);
        assertThat(r.violations()).isEmpty();
        assertThat(r.violated()).isFalse();
    }
}
