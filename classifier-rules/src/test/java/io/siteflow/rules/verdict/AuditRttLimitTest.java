package io.siteflow.rules.verdict;

import static io.siteflow.rules.verdict.Records.tcp;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.rules.audit.AuditReport;
import io.siteflow.rules.audit.AuditReportJson;
import io.siteflow.rules.audit.AuditText;
import io.siteflow.rules.audit.OfflineAudit;
import io.siteflow.rules.model.RttLimit;
import org.junit.jupiter.api.Test;

/** The audit's site pairs against the site model's {@code rttLimitMs} when it is stricter than Oracle's 10 ms. */
class AuditRttLimitTest {
    private static final long T0 = OfflineAuditTest.T0;

    private static AuditReport report(String top) throws Exception {
        OfflineAudit audit = new OfflineAudit(OfflineAuditTest.model(top + OfflineAuditTest.YAML), 60_000);
        audit.accept(tcp("10.2.0.20", 40000, "10.1.0.10", 1521, 1200, 600, T0 + 1, T0 + 30_000, 6500L, "oracle-tns"));
        return audit.report("lab.pcap", 0, 0);
    }

    private static String sitePairs(AuditReport r) throws Exception {
        return new ObjectMapper().readTree(AuditReportJson.toJson(r)).get("sitePairs").toString();
    }

    @Test
    void flagsAPairAboveTheSiteModelsLimitInTextAndJson() throws Exception {
        AuditReport r = report("rttLimitMs: 5\n");

        assertThat(r.sitePairs()).containsExactly(new SitePairRtt("region1", "region2",
                new RttSummary(6500, 6500, 6500, 1), new RttLimit(5_000, RttLimit.Source.SITE_MODEL, true)));
        assertThat(r.sitePairs().get(0).aboveLimit()).isTrue();
        assertThat(r.sitePairs().get(0).aboveOracleLimit()).isFalse();
        assertThat(AuditText.render(r)).contains("RTT per site pair (Oracle supports at most 10 ms):\n"
                + "  region1 <-> region2: p50 6.500 ms, p95 6.500 ms, max 6.500 ms (1 samples)"
                + "  ABOVE the site model's 5 ms limit\n");
        assertThat(sitePairs(r)).isEqualTo("[{\"siteA\":\"region1\",\"siteB\":\"region2\",\"rttMicros\":{\"p50\":6500,"
                + "\"p95\":6500,\"max\":6500,\"samples\":1},\"aboveOracleLimit\":false,\"aboveLimit\":true,"
                + "\"limitMicros\":5000,\"limitSource\":\"site-model\"}]");
    }

    @Test
    void keepsTheSitePairsAsTheyWereWithoutTheKey() throws Exception {
        AuditReport r = report("");

        assertThat(AuditText.render(r)).contains("  region1 <-> region2: p50 6.500 ms, p95 6.500 ms, max 6.500 ms"
                + " (1 samples)  within the 10 ms limit\n");
        assertThat(sitePairs(r)).isEqualTo("[{\"siteA\":\"region1\",\"siteB\":\"region2\",\"rttMicros\":{\"p50\":6500,"
                + "\"p95\":6500,\"max\":6500,\"samples\":1},\"aboveOracleLimit\":false}]");
    }
}
