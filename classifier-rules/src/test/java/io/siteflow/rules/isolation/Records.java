package io.siteflow.rules.isolation;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.load.LoadResult;
import io.siteflow.rules.load.SiteModelLoader;

/** The site model and made-up flow records of the report, JSON and text tests. */
final class Records {
    /** Groups in the evaluator's order: unlisted, soa, db. */
    static final String MODEL = """
            defaults: none
            sites:
              region1: { cidrs: [10.1.0.0/16] }
              region2: { cidrs: [10.2.0.0/16] }
            hosts:
              - { address: 10.1.0.10, name: db1, role: db }
              - { address: 10.1.0.21, name: wls1, role: app-server }
              - { address: 10.2.0.20, name: wls3, role: app-server }
            rules:
              - { name: oracle-net, category: DB, l7: [oracle-tns] }
              - { name: t3, category: CLUSTER, l7: [t3] }
              - { name: oracle-ports, category: DB, ports: [1521, 1522] }
            isolation:
              groups:
                soa: { roles: [app-server] }
                db: { roles: [db] }
              deny:
                - { name: no-t3-to-db, from: any, to: db, l7: [t3] }
              allow:
                - { name: app-db, from: soa, to: db, ports: [1521], l7: [oracle-tns] }
                - { name: soa-cluster, from: soa, to: soa, categories: [CLUSTER] }
            """;

    private static long ids;

    private Records() {
    }

    static IsolationEvaluator evaluator() {
        LoadResult r = SiteModelLoader.parse("sites.yaml", MODEL);
        if (!r.errors().isEmpty()) {
            throw new IllegalStateException(r.diagnostics().toString());
        }
        return new IsolationEvaluator(new Classifier(r.model().orElseThrow()));
    }

    /**
     * A TCP record: {@code bytes}/{@code packets} src→dst, {@code rbytes}/{@code rpackets} back.
     *
     * @param l7 detected protocol wire name, or null
     */
    static FlowRecord tcp(String agent, String src, String dst, int dstPort, String l7, long bytes, long packets,
                          long rbytes, long rpackets, long start, long end, boolean isFinal) {
        FlowRecord.Builder b = FlowRecord.builder().id(agent + "-" + ++ids).agent(agent).iface("eth0")
                .time(start, end).endpoints(6, src, 40000, dst, dstPort).forward(bytes, packets, bytes + 14 * packets, 0x18)
                .reverse(rbytes, rpackets, rbytes + 14 * rpackets, 0x18).isFinal(isFinal);
        if (l7 != null) {
            b.l7(l7);
        }
        return b.build();
    }

    /** A record with a handshake RTT and nothing else of interest. */
    static FlowRecord handshake(String src, String dst, long rttMicros) {
        return FlowRecord.builder().id("rtt-" + ++ids).agent("a").iface("eth0").time(1000, 1000)
                .endpoints(6, src, 40000, dst, 22).forward(60, 1, 74, 0x02).reverse(60, 1, 74, 0x12)
                .rttMicros(rttMicros).build();
    }
}
