package io.siteflow.rules.isolation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link IsolationText} and {@link IsolationCsv} of the report {@link IsolationJsonTest#report()} renders as JSON. */
class IsolationTextTest {

    @Test
    void printsTheOutcomeThePairsMatrixThenEachViolationWithEvidenceSuspectsAndObservers() {
        IsolationReport r = IsolationJsonTest.report();

        assertThat(IsolationText.render(r)).isEqualTo("""
                siteflow isolation check: NOT ISOLATED (2 violating edges, 3000 bytes)
                  policy @POLICY@, site model @MODEL@
                  period 2025-11-24T16:00:00Z .. 2025-11-24T16:00:03Z

                Group pairs (row: initiator's group, column: responder's group; ok = ISOLATED):
                  from \\ to  unlisted    soa         db
                  unlisted   ok          UNVERIFIED  NOT_ISOLATED 2000 B
                  soa        UNVERIFIED  UNVERIFIED  NOT_ISOLATED 1000 B
                  db         ok          UNVERIFIED  ok

                2 violating edges:
                  1. 10.2.0.99 -> 10.1.0.10:1521/tcp  UNLISTED (no rule allows it; default deny)
                     site region2, groups unlisted -> site region1, groups db
                     category DB, l7 oracle-tns; 2000 bytes, 11 packets, 1 flow; 2025-11-24T16:00:02.500Z .. 2025-11-24T16:00:02.600Z; observer edge
                     nearest allow rule app-db, failed:
                       from: 10.2.0.99 (unlisted) not in [soa]
                  2. 10.2.0.20 -> 10.1.0.10:1521/tcp  DENIED by no-t3-to-db
                     site region2, groups soa -> site region1, groups db
                     category CLUSTER, l7 t3; 1000 bytes, 7 packets, 1 flow; 2025-11-24T16:00:01.500Z .. 2025-11-24T16:00:01.600Z; observer edge
                     nearest allow rule app-db, failed:
                       l7: t3 not in [oracle-tns]

                1 MODEL_SUSPECT:
                  10.2.0.40 (region2): handshake RTT to region1 peers 0.250 ms over 3 handshakes, under a quarter of the region2-region1 reference 6.500 ms: the model may put it or its peers in the wrong site

                1 untrusted observer (the pairs they cover are UNVERIFIED):
                  host-wls3 (host 10.2.0.20): silent from 2025-11-24T16:00:00Z to 2025-11-24T16:05:00Z
                """.replace("@POLICY@", r.policyVersion()).replace("@MODEL@", r.modelVersion()));
    }

    @Test
    void saysIsolatedOrUnverifiedWhenNothingViolates() {
        IsolationInputs nothing = new IsolationInputsBuilder(Records.evaluator()).build(1764000000000L,
                1764000060000L, List.of());
        IsolationInputs silent = new IsolationInputsBuilder(Records.evaluator()).build(1764000000000L,
                1764000060000L, List.of(new Unverified("edge", java.util.Optional.empty(), "silent")));

        assertThat(IsolationText.render(IsolationReport.of(nothing))).startsWith(
                "siteflow isolation check: ISOLATED (no violating edge)\n").contains("""
                  from \\ to  unlisted  soa  db
                  unlisted   ok        ok   ok
                  soa        ok        ok   ok
                  db         ok        ok   ok

                0 violating edges
                """).doesNotContain("MODEL_SUSPECT", "untrusted");
        assertThat(IsolationText.render(IsolationReport.of(silent))).startsWith(
                "siteflow isolation check: UNVERIFIED (no violation seen, but not every observer was heard in full)\n")
                .endsWith("""
                        1 untrusted observer (the pairs they cover are UNVERIFIED):
                          edge (every pair): silent
                        """);
    }

    @Test
    void writesOneCsvRowPerViolationAfterTheHeaderQuotingWhereNeeded() {
        IsolationReport r = IsolationJsonTest.report();
        String provenance = r.policyVersion() + "," + r.modelVersion() + "," + r.fromMs() + "," + r.toMs();
        assertThat(IsolationCsv.render(IsolationJsonTest.report())).isEqualTo(
                "decision,rule,client,server,serverPort,proto,category,l7,fromGroups,toGroups,clientSite,serverSite,"
                        + "bytes,packets,flows,firstSeenMs,lastSeenMs,observer,nearestAllow,failed,policy,model,periodFromMs,"
                        + "periodToMs\r\n"
                        + "UNLISTED,,10.2.0.99,10.1.0.10,1521,6,DB,oracle-tns,unlisted,db,region2,region1,2000,11,1,"
                        + "1764000002500,1764000002600,edge,app-db,from: 10.2.0.99 (unlisted) not in [soa]," + provenance + "\r\n"
                        + "DENIED,no-t3-to-db,10.2.0.20,10.1.0.10,1521,6,CLUSTER,t3,soa,db,region2,region1,1000,7,1,"
                        + "1764000001500,1764000001600,edge,app-db,l7: t3 not in [oracle-tns]," + provenance + "\r\n");
    }

    @Test
    void quotesAFailedListThatHoldsACommaInCsv() {
        IsolationInputsBuilder b = new IsolationInputsBuilder(Records.evaluator());
        b.add(Records.tcp("edge", "10.2.0.99", "10.1.0.21", 7001, "t3", 100, 1, 100, 1, 1000, 1000, true));

        IsolationReport r = IsolationReport.of(b.build(1000, 1001, List.of()));

        assertThat(IsolationCsv.render(r).split("\r\n")[1])
                .isEqualTo("UNLISTED,,10.2.0.99,10.1.0.21,7001,6,CLUSTER,t3,unlisted,soa,region2,region1,200,2,1,1000,"
                        + "1000,edge,soa-cluster,from: 10.2.0.99 (unlisted) not in [soa]," + r.policyVersion() + ","
                        + r.modelVersion() + ",1000,1001");
    }
}
