package io.siteflow.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.audit.AuditReport;
import io.siteflow.rules.audit.OfflineAudit;
import io.siteflow.rules.load.LoadResult;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.verdict.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

class SoakFleetTest {
    @Test
    void numbersServersIntoRegion2With250PerSlash24() {
        SoakFleet fleet = new SoakFleet(600, "r");

        assertThat(List.of(fleet.server(0), fleet.server(249), fleet.server(250), fleet.server(599)))
                .containsExactly("10.2.0.1", "10.2.0.250", "10.2.1.1", "10.2.2.100");
        assertThat(fleet.agentOf("10.2.1.1")).isEqualTo(250);
        assertThat(fleet.agentOf("10.1.0.10")).isEqualTo(-1);
        assertThat(SoakFleet.agentId(42)).isEqualTo("soak-00042");
    }

    @Test
    void auditsTheFleetsServersInsteadOfThePipelineTestsThree() {
        assertThat(new SoakFleet(2, "r").sitesYaml()).isEqualTo("""
                threshold: 0.90
                minCrossBytes: 1000
                defaults: none
                sites:
                  region1: { cidrs: [10.1.0.0/16] }
                  region2: { cidrs: [10.2.0.0/16] }
                hosts:
                  - { address: 10.1.0.10, name: db1, role: db }
                  - { address: 10.1.0.20, name: wls1, role: app-server }
                  - { address: 10.2.0.1, name: app0, role: app-server }
                  - { address: 10.2.0.2, name: app1, role: app-server }
                rules:
                  - { name: oracle-ports, category: DB, ports: [1521] }
                  - { name: t3, category: CLUSTER, ports: [7001] }
                """);
    }

    @Test
    void rejectsAFleetOutsideTheAddressPlan() {
        assertThatThrownBy(() -> new SoakFleet(64_001, "r"))
                .hasMessage("agents: 64001 is not from 1 to 64000");
    }

    @Test
    void givesEveryRecordAUniqueIdAndOneRttSampleKeyedByItsServer() {
        SoakFleet fleet = new SoakFleet(3, "run7");

        FlowRecord db = fleet.record(2, 0, 1_764_000_000_050L);
        FlowRecord t3 = fleet.record(2, 19, 1_764_000_000_050L);

        assertThat(db.id()).isEqualTo("soak-00002-run7-0");
        assertThat(db.agent()).isEqualTo("soak-00002");
        assertThat(db.src()).isEqualTo("10.2.0.3");
        assertThat(db.start()).isEqualTo(1_764_000_000_000L);
        assertThat(db.dst() + ":" + db.dstPort()).isEqualTo("10.1.0.10:1521");
        assertThat(db.totalBytes()).isEqualTo(4_000);
        assertThat(db.rttMicros()).isEqualTo(6_500L);
        assertThat(t3.dst() + ":" + t3.dstPort() + " " + t3.l7().wireName()).isEqualTo("10.1.0.20:7001 t3");
        assertThat(t3.totalBytes()).isEqualTo(1_000 + 19 + 3_000 + 19);
    }

    @Test
    void auditsEachServerWithItsRecordsAsRttSamplesAndItsBytesAsCrossBytes() {
        SoakFleet fleet = new SoakFleet(5, "r");
        LoadResult loaded = SiteModelLoader.parse("sites.yaml", fleet.sitesYaml());
        assertThat(loaded.errors()).isEmpty();
        OfflineAudit audit = new OfflineAudit(loaded.model().orElseThrow(), 60_000);
        long[] bytes = new long[5];
        for (int seq = 0; seq < 40; seq++) {
            for (int agent = 0; agent < 5; agent++) {
                FlowRecord r = fleet.record(agent, seq, 1_764_000_000_000L + seq * 100L);
                bytes[agent] += r.totalBytes();
                audit.accept(r);
            }
        }

        AuditReport report = audit.report("fleet", 0, 0);

        assertThat(report.verdicts()).hasSize(5);
        for (Verdict v : report.verdicts()) {
            int agent = fleet.agentOf(v.server());
            assertThat(v.remoteSite()).isEqualTo("region1");
            assertThat(v.rttMicros().samples()).isEqualTo(40);
            assertThat(v.crossBytes()).isEqualTo(bytes[agent]);
            assertThat(v.verdict().name()).isEqualTo("PASS");
        }
    }
}
