package io.siteflow.lab;

/**
 * Names of the lab's namespaces and interfaces for a prefix, and its fixed link-layer addresses.
 *
 * <pre>
 *  PREFIX-r1 (region1)           PREFIX-rt (router, DelayBridge)          PREFIX-r2 (region2)
 *  r1-rt 10.1.0.{2,5,10,20,21} ── rt-r1 ~~~ delay ~~~ rt-r2 ── r2-rt 10.2.0.{20,21}
 * </pre>
 *
 * Both sites' interfaces carry {@code /16} addresses and an on-link route to the other site's {@code /16},
 * with permanent neighbour entries, so no ARP is sent; the router's interfaces have no address and the
 * router's kernel forwards nothing (IP forwarding stays off): frames cross only through the bridge.
 */
public record LabTopology(String prefix) {
    public static final String REGION1 = "region1";
    public static final String REGION2 = "region2";
    public static final String IF_R1 = "r1-rt";
    public static final String IF_R2 = "r2-rt";
    /** The router's region-1 side. */
    public static final String IF_RT_R1 = "rt-r1";
    /** The router's region-2 side: where the agent, tcpdump, iftop and the lab's truth counter listen. */
    public static final String IF_RT_R2 = "rt-r2";
    public static final String MAC_R1 = "02:5f:1a:00:01:01";
    public static final String MAC_R2 = "02:5f:1a:00:02:01";
    public static final String MAC_RT_R1 = "02:5f:1a:00:01:fe";
    public static final String MAC_RT_R2 = "02:5f:1a:00:02:fe";
    public static final String CIDR_R1 = "10.1.0.0/16";
    public static final String CIDR_R2 = "10.2.0.0/16";
    /**
     * Where {@link TrafficLab#nudge()} sends its datagram: inside region 2's own /16, so no capture filtered
     * with {@code -F 10.1.0.0/16} counts it; its neighbour entry points at region 1's interface, so it crosses
     * the router (region 1 drops it: not its address, no forwarding).
     */
    public static final String NUDGE_TARGET = "10.2.255.254";

    public LabTopology {
        if (prefix == null || !prefix.matches("[a-z][a-z0-9]{0,11}")) {
            throw new IllegalArgumentException("lab prefix \"" + prefix
                    + "\": 1-12 lower-case letters and digits, starting with a letter");
        }
    }

    public String region1() {
        return prefix + "-r1";
    }

    public String region2() {
        return prefix + "-r2";
    }

    public String router() {
        return prefix + "-rt";
    }

    /** The namespace of a site ({@link #REGION1} or {@link #REGION2}). */
    public String namespaceOf(String site) {
        return REGION1.equals(site) ? region1() : region2();
    }
}
