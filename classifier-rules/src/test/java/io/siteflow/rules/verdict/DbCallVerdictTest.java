package io.siteflow.rules.verdict;

import static io.siteflow.rules.verdict.Records.tcp;
import static io.siteflow.rules.verdict.Records.withCalls;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.rules.audit.OfflineAudit;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** The verdict's {@code dbCalls} object: calls, rate, percentiles, the network's part, connections, JSON. */
class DbCallVerdictTest {
    private static final long T0 = OfflineAuditTest.T0;

    private static Verdict cumulative(OfflineAudit audit) {
        return audit.report("test.pcap", 0, 0).verdicts().get(0);
    }

    @Test
    void splitsTheCallMedianIntoTheRttAndTheDatabasesPart() throws Exception {
        OfflineAudit audit = new OfflineAudit(OfflineAuditTest.model(OfflineAuditTest.YAML), OfflineAuditTest.M);
        audit.accept(withCalls(tcp("10.2.0.20", 40000, "10.1.0.10", 1521, 900_000, 900_000, T0, T0 + 9_000, 6500L,
                "oracle-tns"), 60, 9_500));
        audit.accept(withCalls(tcp("10.2.0.20", 40002, "10.1.0.10", 1521, 900_000, 900_000, T0 + 1_000, T0 + 10_000,
                6500L, "oracle-tns"), 39, 9_500));
        audit.accept(withCalls(tcp("10.2.0.20", 40003, "10.1.0.10", 1521, 1000, 1000, T0, T0 + 10_000, 6700L,
                "oracle-tns"), 1, 400_000));

        DbCallSummary d = cumulative(audit).dbCalls();

        assertThat(d.calls()).isEqualTo(100);
        assertThat(d.callsPerSecond()).isEqualByComparingTo(new BigDecimal("10.00"));
        assertThat(d.p50()).isEqualTo(9_497);
        assertThat(d.p95()).isEqualTo(9_497);
        assertThat(d.p99()).isEqualTo(9_497);
        assertThat(d.rttMicros()).isEqualTo(6_500);
        assertThat(d.networkShare()).isEqualByComparingTo(new BigDecimal("0.6844"));
        assertThat(d.serviceP50()).isEqualTo(2_997);
        assertThat(d.connections()).isEqualTo(new DbConnectionSummary(3, 3));
    }

    @Test
    void carriesTheObjectWithExactlyTheIssuesKeysAndReadsItBack() throws Exception {
        OfflineAudit audit = new OfflineAudit(OfflineAuditTest.model(OfflineAuditTest.YAML), OfflineAuditTest.M);
        audit.accept(withCalls(tcp("10.2.0.20", 40000, "10.1.0.10", 1521, 900_000, 900_000, T0, T0 + 4_000, 6500L,
                "oracle-tns"), 8, 6_600));
        Verdict v = cumulative(audit);

        String json = VerdictJson.toJson(v);

        assertThat(json).contains("\"dbConnections\":{\"median\":1,\"max\":1},\"dbCalls\":{\"calls\":8,"
                + "\"callsPerSecond\":2.00,\"callMicros\":{\"p50\":6649,\"p95\":6649,\"p99\":6649},\"rttMicros\":6500,"
                + "\"networkShare\":0.9776,\"serviceMicros\":{\"p50\":149},\"connections\":{\"median\":1,\"max\":1}}");
        assertThat(VerdictJson.parse(json)).isEqualTo(v);
    }

    @Test
    void aggregatesReadBackWithTheirCallsSoStoredAndLiveFiguresAgree() throws Exception {
        PairAggregate a = new PairAggregate();
        var c = new io.siteflow.rules.classify.Classifier(OfflineAuditTest.model(OfflineAuditTest.YAML));
        var r = withCalls(tcp("10.2.0.20", 40000, "10.1.0.10", 1521, 900, 900, T0, T0 + 4_000, 6500L, "oracle-tns"),
                8, 6_600);
        a.add(r, c.classify(io.siteflow.rules.classify.Classifier.flowOf(r)), "10.1.0.10");

        PairAggregate back = PairAggregateJson.parse(PairAggregateJson.toBytes(a));

        assertThat(back.dbCalls().calls()).isEqualTo(8);
        assertThat(back.dbCalls().micros()).isEqualTo(52_800);
        assertThat(back.dbCalls().histogram()).isEqualTo(a.dbCalls().histogram());
        assertThat(back.dbCalls().summary(java.util.Optional.empty(), back.rtt(), DbConnectionSummary.NONE))
                .isEqualTo(a.dbCalls().summary(java.util.Optional.empty(), a.rtt(), DbConnectionSummary.NONE));
    }

    @Test
    void readsAVerdictOfAnOlderWriterWithItsConnectionsInDbCalls() throws Exception {
        OfflineAudit audit = new OfflineAudit(OfflineAuditTest.model(OfflineAuditTest.YAML), OfflineAuditTest.M);
        audit.accept(tcp("10.2.0.20", 40000, "10.1.0.10", 1521, 900_000, 900_000, T0));
        String json = VerdictJson.toJson(cumulative(audit));
        String old = json.substring(0, json.indexOf(",\"dbCalls\"")) + json.substring(json.indexOf(",\"rules\""));

        Verdict v = VerdictJson.parse(old);

        assertThat(v.dbCalls().calls()).isZero();
        assertThat(v.dbCalls().connections()).isEqualTo(new DbConnectionSummary(1, 1));
    }

    @Test
    void comparesEachDatabasesLocalAndRemoteServersCallsAndConnectionsPerServer() throws Exception {
        OfflineAudit audit = new OfflineAudit(OfflineAuditTest.model(OfflineAuditTest.YAML), OfflineAuditTest.M);
        audit.accept(withCalls(tcp("10.1.0.11", 41000, "10.1.0.10", 1521, 1000, 1000, T0, T0 + 10_000, 300L,
                "oracle-tns"), 50, 3_300));
        for (int port = 40000; port < 40002; port++) {
            audit.accept(withCalls(tcp("10.2.0.20", port, "10.1.0.10", 1521, 1000, 1000, T0, T0 + 10_000, 6500L,
                    "oracle-tns"), 50, 9_500));
        }
        audit.accept(tcp("10.2.0.20", 40005, "10.1.0.11", 7001, 1000, 1000, T0, T0 + 10_000, 6500L, "t3"));

        DbSiteComparison d = audit.report("test.pcap", 0, 0).dbSites().get(0);

        assertThat(audit.report("test.pcap", 0, 0).dbSites()).hasSize(1);
        assertThat(d.name()).isEqualTo("db1");
        assertThat(d.localServers()).isEqualTo(1);
        assertThat(d.remoteServers()).isEqualTo(1);
        assertThat(d.local().calls()).isEqualTo(50);
        assertThat(d.local().p50()).isEqualTo(3_325);
        assertThat(d.local().rttMicros()).isEqualTo(300);
        assertThat(d.remote().calls()).isEqualTo(100);
        assertThat(d.remote().p50()).isEqualTo(9_497);
        assertThat(d.callRatio()).isEqualByComparingTo(new BigDecimal("2.8562"));
        assertThat(d.connectionRatio()).isEqualByComparingTo(new BigDecimal("2.0000"));
    }
}
