package io.siteflow.rules.verdict;

import static io.siteflow.rules.verdict.Records.tcp;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.rules.audit.AuditCsv;
import io.siteflow.rules.audit.AuditReport;
import io.siteflow.rules.audit.AuditReportJson;
import io.siteflow.rules.audit.AuditText;
import io.siteflow.rules.audit.OfflineAudit;
import org.junit.jupiter.api.Test;

class AuditRenderingTest {
    static final long T0 = OfflineAuditTest.T0;

    private static AuditReport report() throws Exception {
        OfflineAudit audit = new OfflineAudit(OfflineAuditTest.model(OfflineAuditTest.YAML
                + "audit:\n  - { server: wls3, remoteSite: region1 }\n"), 60_000);
        audit.accept(Records.withCalls(tcp("10.2.0.20", 40000, "10.1.0.10", 1521, 1200, 600, T0 + 1, T0 + 30_000, 6500L,
                "oracle-tns"), 300, 9_500));
        audit.accept(tcp("10.2.0.20", 40001, "10.1.0.11", 7001, 150, 50, T0 + 2, T0 + 3, 6700L, "t3"));
        audit.accept(tcp("10.2.0.20", 40002, "10.1.0.11", 9999, 100, 0, T0 + 4, T0 + 5, null, null));
        return audit.report("lab.pcap", 0, 0);
    }

    @Test
    void rendersTheTextReport() throws Exception {
        AuditReport r = report();

        assertThat(AuditText.render(r)).isEqualTo("""
                siteflow audit: lab.pcap
                  3 flow records, 2100 bytes, 2025-11-24T16:00:00.001Z .. 2025-11-24T16:00:30Z
                  rules VERSION

                server wls3 (10.2.0.20, site region2) -> site region1: FAIL
                  DB share 85.71% of 2100 cross-site bytes < threshold 90%; largest other category CLUSTER (200 bytes)
                  category              bytes    share
                  DB                     1800   85.71%
                  CLUSTER                 200    9.52%
                  UNKNOWN                 100    4.76%
                  total                  2100  100.00%
                  remote address                                   bytes    share
                  10.1.0.10                                         1800   85.71%
                  10.1.0.11                                          300   14.28%
                  RTT p50 6.500 ms, p95 6.700 ms, max 6.700 ms (2 samples)
                  DB connections: median 1, max 1
                  DB calls: 300 (10.00/s), p50 9.497 ms, p95 9.497 ms, p99 9.497 ms; RTT 6.500 ms = 68.44% of p50, service 2.997 ms
                  unclassified: 100 bytes
                  largest non-DB flows:
                    tcp 10.2.0.20:40001 -> 10.1.0.11:7001 l7=t3  CLUSTER by fmw-t3-giop  200 bytes
                    tcp 10.2.0.20:40002 -> 10.1.0.11:9999  UNKNOWN, no rule matched  100 bytes

                RTT per site pair (Oracle supports at most 10 ms):
                  region1 <-> region2: p50 6.500 ms, p95 6.700 ms, max 6.700 ms (2 samples)  within the 10 ms limit

                DB calls to db1 (10.1.0.10, site region1): local 0 servers, remote 1 servers
                  local: none timed
                  remote: 300 (10.00/s), p50 9.497 ms, p95 9.497 ms, p99 9.497 ms; RTT 6.500 ms = 68.44% of p50, service 2.997 ms
                  remote/local: call p50 x0.0000, connections per server x0.0000

                windows: 1 verdicts (PASS 0, FAIL 1, INSUFFICIENT 0)
                """.replace("VERSION", r.rules()));
    }

    @Test
    void rendersOneCsvRowPerVerdict() throws Exception {
        AuditReport r = report();

        String v = r.rules();
        String reason = "DB share 85.71% of 2100 cross-site bytes < threshold 90%; largest other category CLUSTER (200 bytes)";
        assertThat(AuditCsv.render(r)).isEqualTo(
                "server,name,site,remoteSite,windowStart,windowEnd,verdict,dbShare,threshold,crossBytes,DB,CLUSTER,"
                + "JMS,COHERENCE,FRONTEND,ADMIN,OTHER,UNKNOWN,rttP50,rttP95,rttMax,rttSamples,dbConnectionsMedian,"
                + "dbConnectionsMax,rules,reason,dbCalls,dbCallsPerSecond,dbCallP50,dbCallP95,dbCallP99,dbCallRttMicros,"
                + "dbCallNetworkShare,dbCallServiceP50\r\n"
                + "10.2.0.20,wls3,region2,region1,,,FAIL,0.8571,0.9,2100,1800,200,0,0,0,0,0,100,6500,6700,6700,2,1,1,"
                + v + "," + reason + ",300,10.00,9497,9497,9497,6500,0.6844,2997\r\n"
                + "10.2.0.20,wls3,region2,region1,1764000000000,1764000060000,FAIL,0.8571,0.9,2100,1800,200,0,0,0,0,0,"
                + "100,6500,6700,6700,2,1,1," + v + "," + reason + ",300,5.00,9497,9497,9497,6500,0.6844,2997\r\n");
        assertThat(AuditCsv.quote("a,\"b\"")).isEqualTo("\"a,\"\"b\"\"\"");
    }

    @Test
    void rendersTheJsonReportWithItsFiveParts() throws Exception {
        String json = AuditReportJson.toJson(report());

        assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(json).fieldNames())
                .toIterable().containsExactly("capture", "verdicts", "windows", "sitePairs", "dbSites");
    }
}
