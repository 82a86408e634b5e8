package io.siteflow.bench.soak;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.L7Protocol;
import io.siteflow.synth.SyntheticCluster;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The simulated agents and what they see: agent i runs on app server i in region2 ({@link #server}), which talks
 * to the database db1 (10.1.0.10:1521, oracle-tns) over 40 pooled connections and, every twentieth record, to
 * the cluster peer wls1 (10.1.0.20:7001, t3). Every record carries one handshake RTT sample, so the
 * {@code rttMicros.samples} of a server's cumulative verdict is the number of its records counted, and its
 * {@code crossBytes} the sum of their {@code bytes + rbytes}. Immutable, thread-safe.
 */
public final class SoakFleet {
    /** The agents' interface name in records and heartbeats. */
    public static final String IFACE = "ens3";
    private static final int POOL = 40;

    private final int agents;
    private final String runId;
    private final String[] servers;
    private final Map<String, Integer> index = new HashMap<>();

    /**
     * @param agents how many agents (1..{@link SoakOptions#MAX_AGENTS})
     * @param runId  unique per run, part of every record id (the processor drops a repeated id)
     */
    public SoakFleet(int agents, String runId) {
        if (agents < 1 || agents > SoakOptions.MAX_AGENTS) {
            throw new IllegalArgumentException("agents: " + agents + " is not from 1 to " + SoakOptions.MAX_AGENTS);
        }
        this.agents = agents;
        this.runId = runId;
        this.servers = new String[agents];
        for (int i = 0; i < agents; i++) {
            servers[i] = "10.2." + i / 250 + "." + (i % 250 + 1);
            index.put(servers[i], i);
        }
    }

    public int agents() {
        return agents;
    }

    /** Agent i's id, {@code soak-00042}. */
    public static String agentId(int i) {
        return String.format("soak-%05d", i);
    }

    /** Agent i's server address: 10.2.(i / 250).(i % 250 + 1). */
    public String server(int i) {
        return servers[i];
    }

    /** The agent of a server address, or -1. */
    public int agentOf(String server) {
        return index.getOrDefault(server, -1);
    }

    /**
     * The site model that audits every agent's server against region1 (PASS: about 95% DB): the pipeline tests'
     * model ({@link SyntheticCluster#sites}: db1, wls1 in region1, the DB and T3 rules) with the fleet's servers
     * in region2 instead of its three.
     */
    public String sitesYaml() {
        Map<String, String> fleet = new LinkedHashMap<>();
        for (int i = 0; i < agents; i++) {
            fleet.put(servers[i], "app" + i);
        }
        return SyntheticCluster.sites(fleet);
    }

    /**
     * Agent {@code i}'s record number {@code seq}, ending at {@code endMs} (a 50 ms flow); id
     * {@code <agent>-<runId>-<seq>}. Sizes vary with seq; the key on {@code siteflow.flows} is {@link #server}.
     */
    public FlowRecord record(int i, long seq, long endMs) {
        boolean t3 = seq % 20 == 19;
        long bytes = 1_000 + seq % 97;
        long rbytes = 3_000 + seq % 89;
        return FlowRecord.builder().id(agentId(i) + "-" + runId + "-" + seq).agent(agentId(i)).iface(IFACE)
                .time(endMs - 50, endMs)
                .endpoints(6, servers[i], (int) (40_000 + seq % POOL), t3 ? "10.1.0.20" : "10.1.0.10", t3 ? 7001 : 1521)
                .forward(bytes, 3, bytes + 42, 0x1b).reverse(rbytes, 4, rbytes + 56, 0x1b).rttMicros(6_500L + seq % 50)
                .l7(t3 ? L7Protocol.T3 : L7Protocol.ORACLE_TNS).build();
    }
}
