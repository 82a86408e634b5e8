package io.siteflow.lab;

import java.util.List;

/**
 * One host of the lab: a name from {@code deploy/conf/sites.yaml}, its address, and its site. Hosts of a site
 * are addresses on the one interface of that site's namespace.
 */
public record LabHost(String name, String address, String site) {
    public static final LabHost DB1 = new LabHost("db1", "10.1.0.10", LabTopology.REGION1);
    public static final LabHost ADMIN1 = new LabHost("admin1", "10.1.0.5", LabTopology.REGION1);
    public static final LabHost DNS1 = new LabHost("dns1", "10.1.0.2", LabTopology.REGION1);
    public static final LabHost WLS1 = new LabHost("wls1", "10.1.0.20", LabTopology.REGION1);
    public static final LabHost WLS2 = new LabHost("wls2", "10.1.0.21", LabTopology.REGION1);
    public static final LabHost WLS3 = new LabHost("wls3", "10.2.0.20", LabTopology.REGION2);
    public static final LabHost WLS4 = new LabHost("wls4", "10.2.0.21", LabTopology.REGION2);

    /** Region 1 (servers: database, admin server, DNS, JMS/cluster/Coherence peers). */
    public static final List<LabHost> REGION1_HOSTS = List.of(DB1, ADMIN1, DNS1, WLS1, WLS2);
    /** Region 2 (the audited application servers; they open every conversation). */
    public static final List<LabHost> REGION2_HOSTS = List.of(WLS3, WLS4);

    /** The host with this name, or this address. */
    public static LabHost named(String nameOrAddress) {
        for (LabHost h : all()) {
            if (h.name.equals(nameOrAddress) || h.address.equals(nameOrAddress)) {
                return h;
            }
        }
        throw new IllegalArgumentException("unknown lab host \"" + nameOrAddress + "\" (hosts: wls3, wls4, "
                + "db1, admin1, dns1, wls1, wls2)");
    }

    /** Every host, region 1 first. */
    public static List<LabHost> all() {
        return List.of(DB1, ADMIN1, DNS1, WLS1, WLS2, WLS3, WLS4);
    }
}
