package io.siteflow.rules.verdict;

import static io.siteflow.rules.verdict.OfflineAuditTest.M;
import static io.siteflow.rules.verdict.OfflineAuditTest.T0;
import static io.siteflow.rules.verdict.OfflineAuditTest.YAML;
import static io.siteflow.rules.verdict.OfflineAuditTest.model;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.audit.OfflineAudit;
import org.junit.jupiter.api.Test;

/** The observer rule with an exporter: the server's host agent counts, the exporter's records are compared. */
class ExporterComparisonTest {
    private static FlowRecord db(String agent, String exporter, long bytes, long rbytes, long start) {
        return FlowRecord.builder().id(agent + "-" + exporter + "-" + start).agent(agent).iface("x")
                .time(start, start + 10).endpoints(6, "10.2.0.20", 40_000, "10.1.0.10", 1521)
                .forward(bytes, 10, 0, 0x18).reverse(rbytes, 10, 0, 0x18)
                .exporter(exporter, exporter == null ? null : 0L).build();
    }

    @Test
    void theHostAgentsRecordCountsAndTheExportersIsComparedNotAdded() throws Exception {
        OfflineAudit audit = new OfflineAudit(model(YAML), M);
        audit.accept(db("wls3", null, 3000, 2000, T0));
        audit.accept(db("edge-b", "192.0.2.1", 2900, 1900, T0 + 1));

        Verdict v = audit.report("flows.jsonl", 0, 0).verdicts().get(0);
        Verdict w = audit.report("flows.jsonl", 0, 0).windows().get(0);

        assertThat(v.crossBytes()).isEqualTo(5000);
        assertThat(v.exporters()).contains(new ExporterComparison(4800, 200));
        assertThat(w.exporters()).contains(new ExporterComparison(4800, 200));
        assertThat(VerdictJson.toJson(v)).endsWith(",\"exporters\":{\"bytes\":4800,\"difference\":200}}");
        assertThat(VerdictJson.parse(VerdictJson.toJson(v))).isEqualTo(v);
    }

    @Test
    void anExporterAloneObservesTheServerAndASecondOneOnThePathIsComparedWithIt() throws Exception {
        OfflineAudit audit = new OfflineAudit(model(YAML), M);
        audit.accept(db("edge-b", "192.0.2.1", 2900, 1900, T0));
        Verdict alone = audit.report("flows.jsonl", 0, 0).verdicts().get(0);
        audit.accept(db("edge-b", "192.0.2.2", 2900, 1800, T0 + 1)); // a second router on the same path: not added

        Verdict v = audit.report("flows.jsonl", 0, 0).verdicts().get(0);

        assertThat(alone.exporters()).isEmpty();
        assertThat(VerdictJson.toJson(alone)).doesNotContain("exporters");
        assertThat(v.crossBytes()).isEqualTo(4800);
        assertThat(v.exporters()).contains(new ExporterComparison(4700, 100));
    }

    @Test
    void theComparisonSurvivesTheAggregatesJsonAndMerges() throws Exception {
        PairAggregate a = new PairAggregate();
        a.compareExporter(db("edge-b", "192.0.2.1", 2900, 1900, T0));
        PairAggregate b = PairAggregateJson.parse(PairAggregateJson.toBytes(a)).merge(a);

        assertThat(new String(PairAggregateJson.toBytes(b), java.nio.charset.StandardCharsets.UTF_8))
                .endsWith(",\"exporters\":{\"records\":2,\"bytes\":9600}}");
        assertThat(b.exporters()).contains(new ExporterComparison(9600, -9600));
    }
}
