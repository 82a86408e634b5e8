package io.siteflow.rules.verdict;

import static io.siteflow.rules.verdict.OfflineAuditTest.M;
import static io.siteflow.rules.verdict.OfflineAuditTest.T0;
import static io.siteflow.rules.verdict.OfflineAuditTest.YAML;
import static io.siteflow.rules.verdict.OfflineAuditTest.model;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.audit.AuditText;
import io.siteflow.rules.audit.OfflineAudit;
import java.math.BigDecimal;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SampledEstimateTest {
    /** A DB flow and a cluster flow as an exporter sampling 1 in 10 reported them (counts already scaled). */
    private static final FlowRecord DB = exported(40_000, 1521, 9_000_000, 10_000);
    private static final FlowRecord OTHER = exported(40_001, 7001, 1_000_000, 2_000);

    private static FlowRecord exported(int srcPort, int dstPort, long bytes, long packets) {
        return FlowRecord.builder().id("edge-b-" + srcPort).agent("edge-b").iface("0.0.0.0:2055").time(T0, T0 + 1000)
                .endpoints(6, "10.2.0.20", srcPort, "10.1.0.10", dstPort).forward(bytes, packets, 0, 0x18)
                .exporter("192.0.2.1", 0L).sampled(10).build();
    }

    @Test
    void aVerdictFromSampledRecordsCarriesTheMarkAndTheDeltaMethodBound() throws Exception {
        OfflineAudit audit = new OfflineAudit(model(YAML), M);
        audit.accept(DB);
        audit.accept(OTHER);

        Verdict v = audit.report("flows.jsonl", 0, 0).verdicts().get(0);

        // squares per record: 9 * 9e6^2 / 1e4 / 1024 = 71191406.25 -> 71191406; 9 * 1e6^2 / 2000 / 1024 -> 4394531;
        // Var = (0.1^2 * 71191406 + 0.9^2 * 4394531) * 1024 / 1e7^2 = 4.3739998e-5; 5 sigma = 0.033068 -> 0.0331
        assertThat(v.dbShare()).isEqualTo(new BigDecimal("0.9000"));
        assertThat(v.estimate()).contains(new SampledEstimate(10, new BigDecimal("0.0331")));
        assertThat(VerdictJson.toJson(v)).endsWith(",\"estimate\":{\"sampling\":10,\"bound\":0.0331}}");
        assertThat(VerdictJson.parse(VerdictJson.toJson(v))).isEqualTo(v);
        assertThat(AuditText.render(audit.report("flows.jsonl", 0, 0))).contains("  estimate: records sampled 1 in 10 "
                + "(at most); the exact DB share within +/- 3.31% of this one (5 sigma)\n");
    }

    @Test
    void aVerdictOfCountedRecordsHasNoMarkAndItsJsonIsWhatItWas() throws Exception {
        OfflineAudit audit = new OfflineAudit(model(YAML), M);
        audit.accept(DB.toBuilder().exporter(null, null).sampled(null).build());

        Verdict v = audit.report("flows.jsonl", 0, 0).verdicts().get(0);

        assertThat(v.estimate()).isEmpty();
        assertThat(VerdictJson.toJson(v)).doesNotContain("estimate").endsWith("\"topFlows\":[]}");
    }

    @Test
    void theAggregateKeepsTheSumsThroughItsJsonAndMergesThem() throws Exception {
        PairAggregate db = new PairAggregate();
        db.add(DB, new io.siteflow.rules.classify.Classifier(model(YAML)).classify(DB), "10.1.0.10");
        PairAggregate other = new PairAggregate();
        other.add(OTHER, new io.siteflow.rules.classify.Classifier(model(YAML)).classify(OTHER), "10.1.0.10");

        PairAggregate read = PairAggregateJson.parse(PairAggregateJson.toBytes(db));
        read.merge(PairAggregateJson.parse(PairAggregateJson.toBytes(other)));

        assertThat(read.estimate()).contains(new SampledEstimate(10, new BigDecimal("0.0331")));
        assertThat(new String(PairAggregateJson.toBytes(read), java.nio.charset.StandardCharsets.UTF_8))
                .endsWith(",\"sampled\":{\"sampling\":10,\"dbSquares\":71191406,\"otherSquares\":4394531}}");
        assertThat(new PairAggregate().estimate()).isEqualTo(Optional.empty());
    }

    @Test
    void refusesAnEstimateWithoutARate() {
        assertThatThrownBy(() -> VerdictJson.parse("{\"server\":\"s\",\"name\":\"n\",\"site\":\"a\","
                + "\"remoteSite\":\"b\","
                + "\"verdict\":\"PASS\",\"dbShare\":0.9,\"threshold\":0.9,\"crossBytes\":1,\"rules\":\"r\","
                + "\"reason\":\"x\",\"estimate\":{\"bound\":0.01}}"))
                .isInstanceOf(VerdictFormatException.class)
                .hasMessage("estimate: needs sampling (2 or more) and bound (0 or more), got null and 0.01");
    }
}
