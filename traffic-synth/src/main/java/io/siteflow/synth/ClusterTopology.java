package io.siteflow.synth;

import java.util.List;

/**
 * The Oracle FMW stretched cluster of DESIGN.md: region1 (10.1.0.0/16) holds the database db1 10.1.0.10,
 * the admin host 10.1.0.5, the resolver dns1 10.1.0.2 and app servers wls1 10.1.0.20 and wls2 10.1.0.21;
 * region2 (10.2.0.0/16) holds wls3 10.2.0.20 and wls4 10.2.0.21. One-way delays are half the region RTTs.
 * Immutable.
 */
public final class ClusterTopology {
    public static final String REGION1 = "region1";
    public static final String REGION2 = "region2";
    public static final ClusterHost DB1 = new ClusterHost("db1", "10.1.0.10", REGION1, ClusterHost.Role.DB);
    public static final ClusterHost ADMIN = new ClusterHost("admin", "10.1.0.5", REGION1, ClusterHost.Role.ADMIN);
    public static final ClusterHost DNS1 = new ClusterHost("dns1", "10.1.0.2", REGION1, ClusterHost.Role.DNS);
    public static final ClusterHost WLS1 = new ClusterHost("wls1", "10.1.0.20", REGION1, ClusterHost.Role.APP_SERVER);
    public static final ClusterHost WLS2 = new ClusterHost("wls2", "10.1.0.21", REGION1, ClusterHost.Role.APP_SERVER);
    public static final ClusterHost WLS3 = new ClusterHost("wls3", "10.2.0.20", REGION2, ClusterHost.Role.APP_SERVER);
    public static final ClusterHost WLS4 = new ClusterHost("wls4", "10.2.0.21", REGION2, ClusterHost.Role.APP_SERVER);
    private static final List<ClusterHost> HOSTS = List.of(DB1, ADMIN, DNS1, WLS1, WLS2, WLS3, WLS4);

    private final long interRegionRttNanos;
    private final long intraRegionRttNanos;

    /**
     * @throws IllegalArgumentException when an RTT is not positive or the region RTT is not above the local one
     */
    public ClusterTopology(long interRegionRttMicros, long intraRegionRttMicros) {
        if (intraRegionRttMicros <= 0 || interRegionRttMicros <= intraRegionRttMicros) {
            throw new IllegalArgumentException("RTTs must satisfy 0 < intra-region (" + intraRegionRttMicros
                    + " µs) < inter-region (" + interRegionRttMicros + " µs)");
        }
        this.interRegionRttNanos = interRegionRttMicros * 1000;
        this.intraRegionRttNanos = intraRegionRttMicros * 1000;
    }

    public List<ClusterHost> hosts() {
        return HOSTS;
    }

    /** wls1, wls2, wls3, wls4. */
    public List<ClusterHost> appServers() {
        return List.of(WLS1, WLS2, WLS3, WLS4);
    }

    /**
     * The host called {@code name}.
     *
     * @throws IllegalArgumentException naming the known hosts when there is none
     */
    public ClusterHost host(String name) {
        return HOSTS.stream().filter(h -> h.name().equals(name)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("unknown host " + name + " (known: "
                        + String.join(", ", HOSTS.stream().map(ClusterHost::name).toList()) + ")"));
    }

    /** One-way delay between two hosts: half the inter- or intra-region RTT. */
    public long oneWayNanos(ClusterHost a, ClusterHost b) {
        return (a.region().equals(b.region()) ? intraRegionRttNanos : interRegionRttNanos) / 2;
    }

    public long interRegionRttMicros() {
        return interRegionRttNanos / 1000;
    }

    public long intraRegionRttMicros() {
        return intraRegionRttNanos / 1000;
    }
}
