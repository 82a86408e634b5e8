package io.siteflow.rules.isolation;

import static io.siteflow.rules.isolation.Records.tcp;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link IsolationJson}: the report as the issue's JSON, every field in its fixed order. */
class IsolationJsonTest {
    /** Two violations (an unlisted host to the DB, T3 on its port), allowed TNS, two suspects, a silent host agent. */
    static IsolationReport report() {
        IsolationInputsBuilder b = new IsolationInputsBuilder(Records.evaluator());
        b.add(tcp("edge", "10.2.0.20", "10.1.0.10", 1521, "oracle-tns", 50_000, 50, 900_000, 600, 1764000000000L,
                1764000002000L, true));
        b.add(tcp("edge", "10.2.0.20", "10.1.0.10", 1521, "t3", 600, 4, 400, 3, 1764000001500L, 1764000001600L, true));
        b.add(tcp("edge", "10.2.0.99", "10.1.0.10", 1521, "oracle-tns", 1200, 6, 800, 5, 1764000002500L,
                1764000002600L, false));
        IsolationInputs in = b.build(1764000000000L, 1764000003000L, List.of(new Unverified("host-wls3",
                Optional.of("10.2.0.20"), "silent from 2025-11-24T16:00:00Z to 2025-11-24T16:05:00Z")));
        return IsolationReport.of(new IsolationInputs(in.evaluator(), in.fromMs(), in.toMs(), in.edges(),
                in.unverified(), List.of(new HostRtt("10.2.0.20", "region1", 5, 6500),
                new HostRtt("10.1.0.10", "region2", 5, 6400), new HostRtt("10.2.0.40", "region1", 3, 250))));
    }

    @Test
    void writesPolicyModelPeriodViolationsWithEvidencePairsSuspectsAndUnverifiedInOrder() {
        IsolationReport r = report();

        assertThat(IsolationJson.write(r)).isEqualTo("""
                {
                  "policy" : "@POLICY@",
                  "model" : "@MODEL@",
                  "from" : 1764000000000,
                  "to" : 1764000003000,
                  "violations" : [ {
                    "decision" : "UNLISTED",
                    "rule" : "",
                    "client" : "10.2.0.99",
                    "server" : "10.1.0.10",
                    "serverPort" : 1521,
                    "proto" : 6,
                    "category" : "DB",
                    "l7" : "oracle-tns",
                    "fromGroups" : [ "unlisted" ],
                    "toGroups" : [ "db" ],
                    "clientSite" : "region2",
                    "serverSite" : "region1",
                    "bytes" : 2000,
                    "packets" : 11,
                    "flows" : 1,
                    "firstSeenMs" : 1764000002500,
                    "lastSeenMs" : 1764000002600,
                    "observer" : "edge",
                    "nearestAllow" : {
                      "rule" : "app-db",
                      "failed" : [ "from: 10.2.0.99 (unlisted) not in [soa]" ]
                    }
                  }, {
                    "decision" : "DENIED",
                    "rule" : "no-t3-to-db",
                    "client" : "10.2.0.20",
                    "server" : "10.1.0.10",
                    "serverPort" : 1521,
                    "proto" : 6,
                    "category" : "CLUSTER",
                    "l7" : "t3",
                    "fromGroups" : [ "soa" ],
                    "toGroups" : [ "db" ],
                    "clientSite" : "region2",
                    "serverSite" : "region1",
                    "bytes" : 1000,
                    "packets" : 7,
                    "flows" : 1,
                    "firstSeenMs" : 1764000001500,
                    "lastSeenMs" : 1764000001600,
                    "observer" : "edge",
                    "nearestAllow" : {
                      "rule" : "app-db",
                      "failed" : [ "l7: t3 not in [oracle-tns]" ]
                    }
                  } ],
                  "pairs" : [ {
                    "from" : "unlisted",
                    "to" : "unlisted",
                    "state" : "ISOLATED",
                    "violatingBytes" : 0
                  }, {
                    "from" : "unlisted",
                    "to" : "soa",
                    "state" : "UNVERIFIED",
                    "violatingBytes" : 0
                  }, {
                    "from" : "unlisted",
                    "to" : "db",
                    "state" : "NOT_ISOLATED",
                    "violatingBytes" : 2000
                  }, {
                    "from" : "soa",
                    "to" : "unlisted",
                    "state" : "UNVERIFIED",
                    "violatingBytes" : 0
                  }, {
                    "from" : "soa",
                    "to" : "soa",
                    "state" : "UNVERIFIED",
                    "violatingBytes" : 0
                  }, {
                    "from" : "soa",
                    "to" : "db",
                    "state" : "NOT_ISOLATED",
                    "violatingBytes" : 1000
                  }, {
                    "from" : "db",
                    "to" : "unlisted",
                    "state" : "ISOLATED",
                    "violatingBytes" : 0
                  }, {
                    "from" : "db",
                    "to" : "soa",
                    "state" : "UNVERIFIED",
                    "violatingBytes" : 0
                  }, {
                    "from" : "db",
                    "to" : "db",
                    "state" : "ISOLATED",
                    "violatingBytes" : 0
                  } ],
                  "modelSuspects" : [ {
                    "address" : "10.2.0.40",
                    "site" : "region2",
                    "peerSite" : "region1",
                    "minRttMicros" : 250,
                    "referenceMicros" : 6500,
                    "message" : "10.2.0.40 (region2): handshake RTT to region1 peers 0.250 ms over 3 handshakes, under a quarter of the region2-region1 reference 6.500 ms: the model may put it or its peers in the wrong site"
                  } ],
                  "unverified" : [ {
                    "agent" : "host-wls3",
                    "host" : "10.2.0.20",
                    "reason" : "silent from 2025-11-24T16:00:00Z to 2025-11-24T16:05:00Z"
                  } ]
                }
                """.replace("@POLICY@", r.policyVersion()).replace("@MODEL@", r.modelVersion()));
        assertThat(r.policyVersion()).startsWith("sha256:");
    }

    @Test
    void writesNullForAnEdgeAgentsHostAndForANearestAllowRuleOfAPolicyWithoutAllowRules() throws Exception {
        IsolationEvaluator e = new IsolationEvaluator(new io.siteflow.rules.classify.Classifier(
                io.siteflow.rules.load.SiteModelLoader.parse("sites.yaml", Records.MODEL.substring(0,
                        Records.MODEL.indexOf("  allow:"))).model().orElseThrow()));
        IsolationInputsBuilder b = new IsolationInputsBuilder(e);
        b.add(tcp("edge", "10.2.0.20", "10.1.0.10", 1521, "t3", 600, 4, 400, 3, 1500, 1600, true));
        IsolationReport r = IsolationReport.of(b.build(1000, 2000,
                List.of(new Unverified("edge", Optional.empty(), "dropped 0.2% of its packets"))));

        var json = new ObjectMapper().readTree(IsolationJson.write(r));

        assertThat(json.get("violations").get(0).get("nearestAllow").isNull()).isTrue();
        assertThat(json.get("unverified").toString())
                .isEqualTo("[{\"agent\":\"edge\",\"host\":null,\"reason\":\"dropped 0.2% of its packets\"}]");
        assertThat(json.get("pairs").toString()).isEqualTo("[{\"from\":\"unlisted\",\"to\":\"unlisted\",\"state\":"
                + "\"UNVERIFIED\",\"violatingBytes\":0},{\"from\":\"unlisted\",\"to\":\"soa\",\"state\":\"UNVERIFIED\","
                + "\"violatingBytes\":0},{\"from\":\"unlisted\",\"to\":\"db\",\"state\":\"UNVERIFIED\","
                + "\"violatingBytes\":0},{\"from\":\"soa\",\"to\":\"unlisted\",\"state\":\"UNVERIFIED\","
                + "\"violatingBytes\":0},{\"from\":\"soa\",\"to\":\"soa\",\"state\":\"UNVERIFIED\","
                + "\"violatingBytes\":0},{\"from\":\"soa\",\"to\":\"db\",\"state\":\"NOT_ISOLATED\","
                + "\"violatingBytes\":1000},{\"from\":\"db\",\"to\":\"unlisted\",\"state\":\"UNVERIFIED\","
                + "\"violatingBytes\":0},{\"from\":\"db\",\"to\":\"soa\",\"state\":\"UNVERIFIED\","
                + "\"violatingBytes\":0},{\"from\":\"db\",\"to\":\"db\",\"state\":\"UNVERIFIED\",\"violatingBytes\":0}]");
    }
}
