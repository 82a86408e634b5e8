package io.siteflow.synth;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.L7Protocol;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Flow records with known content for the pipeline tests and the streams benchmark: three app servers in
 * region2 talking to the database and a cluster peer in region1 as seen by one edge agent, and the site model
 * that audits them. Every record has a unique id. Stateless.
 */
public final class SyntheticCluster {
    /** The site model the synthetic records are audited with: three audited servers, DB and T3 rules. */
    public static final String SITES = sites(threeServers());

    /**
     * The model of {@link #SITES} (region1 with db1 and wls1, region2, the DB and T3 rules) with the audited app
     * servers {@code region2Servers} (address to name, in iteration order) in region2 instead of its three.
     */
    public static String sites(Map<String, String> region2Servers) {
        StringBuilder yaml = new StringBuilder("""
                threshold: 0.90
                minCrossBytes: 1000
                defaults: none
                sites:
                  region1: { cidrs: [10.1.0.0/16] }
                  region2: { cidrs: [10.2.0.0/16] }
                hosts:
                  - { address: 10.1.0.10, name: db1, role: db }
                  - { address: 10.1.0.20, name: wls1, role: app-server }
                """);
        region2Servers.forEach((address, name) -> yaml.append("  - { address: ").append(address).append(", name: ")
                .append(name).append(", role: app-server }\n"));
        return yaml.append("""
                rules:
                  - { name: oracle-ports, category: DB, ports: [1521] }
                  - { name: t3, category: CLUSTER, ports: [7001] }
                """).toString();
    }

    private static Map<String, String> threeServers() {
        Map<String, String> servers = new LinkedHashMap<>();
        servers.put("10.2.0.20", "wls3");
        servers.put("10.2.0.21", "wls4");
        servers.put("10.2.0.22", "wls5");
        return servers;
    }

    /** The audited servers; record n is server n % 3's. */
    public static final List<String> SERVERS = List.of("10.2.0.20", "10.2.0.21", "10.2.0.22");
    /** A whole minute, the base event time. */
    public static final long T0 = 1_764_000_000_000L;
    /** The agent every record comes from. */
    public static final String AGENT = "edge-b";

    private SyntheticCluster() {
    }

    /**
     * Record {@code n} starting at {@code start}: server n % 3; every fifth record is T3 to wls1, the rest DB;
     * sizes vary with n; each server uses 40 pooled connections (source ports), as a JDBC pool would.
     */
    public static FlowRecord flow(long n, long start, String id) {
        String server = SERVERS.get((int) (n % SERVERS.size()));
        boolean t3 = n % 5 == 4;
        long bytes = 1_000 + n % 97;
        long rbytes = 3_000 + n % 89;
        return FlowRecord.builder().id(id).agent(AGENT).iface("eth0").time(start, start + 50)
                .endpoints(6, server, (int) (40_000 + (n / 3) % 40), t3 ? "10.1.0.20" : "10.1.0.10", t3 ? 7001 : 1521)
                .forward(bytes, 3, bytes + 42, 0x1b).reverse(rbytes, 4, rbytes + 56, 0x1b)
                .l7(t3 ? L7Protocol.T3 : L7Protocol.ORACLE_TNS).build();
    }

    /** Records 0..count-1, record n starting {@code n * stepMs} after {@link #T0}, ids {@code <prefix>-<n>}. */
    public static List<FlowRecord> flows(int count, long stepMs, String idPrefix) {
        List<FlowRecord> out = new ArrayList<>(count);
        for (int n = 0; n < count; n++) {
            out.add(flow(n, T0 + n * stepMs, idPrefix + "-" + n));
        }
        return out;
    }

    /**
     * One small DB record per audited server starting at {@code start}: sent after the data, it moves each
     * server's task's stream time past the last data window's end plus grace, so those windows close.
     * Part of the data (counted in cumulative totals); its own window stays open.
     */
    public static List<FlowRecord> closers(long start, String idPrefix) {
        List<FlowRecord> out = new ArrayList<>();
        for (String server : SERVERS) {
            out.add(FlowRecord.builder().id(idPrefix + "-close-" + server).agent(AGENT).iface("eth0").time(start, start)
                    .endpoints(6, server, 39_999, "10.1.0.10", 1521).forward(100, 1, 114, 0x18).build());
        }
        return out;
    }
}
