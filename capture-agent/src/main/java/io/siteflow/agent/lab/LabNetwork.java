package io.siteflow.agent.lab;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Creates and deletes the three namespaces of a {@link LabTopology}: IPv6 off, loopbacks up, two veth pairs
 * with offloads off (TSO, GSO, GRO and transmit checksumming, so every captured frame is one wire frame with
 * valid checksums and can be re-injected as is), addresses, on-link routes and permanent neighbours.
 * {@link #down} is idempotent. Needs root, iproute2 and ethtool. Not thread-safe.
 */
public final class LabNetwork {
    private LabNetwork() {
    }

    /** True when any of the lab's namespaces exists. */
    public static boolean exists(LabTopology t) throws IOException {
        return !existing(t).isEmpty();
    }

    /**
     * Builds the lab; when a step fails, deletes what it created before rethrowing.
     *
     * @throws IOException when a namespace of that prefix exists already, or a command fails
     */
    public static void up(LabTopology t) throws IOException {
        if (exists(t)) {
            throw new IOException("lab " + t.prefix() + " is already up (namespaces " + existing(t)
                    + "); run down first");
        }
        try {
            build(t);
        } catch (IOException | RuntimeException e) {
            down(t);
            throw e;
        }
    }

    private static void build(LabTopology t) throws IOException {
        for (String ns : List.of(t.region1(), t.router(), t.region2())) {
            Shell.run("ip", "netns", "add", ns);
            Shell.inNs(ns, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
                    "net.ipv6.conf.default.disable_ipv6=1", "net.ipv4.ip_forward=0");
            Shell.run("ip", "-n", ns, "link", "set", "lo", "up");
        }
        veth(t.region1(), LabTopology.IF_R1, LabTopology.MAC_R1, t.router(), LabTopology.IF_RT_R1, LabTopology.MAC_RT_R1);
        veth(t.region2(), LabTopology.IF_R2, LabTopology.MAC_R2, t.router(), LabTopology.IF_RT_R2, LabTopology.MAC_RT_R2);
        site(t.region1(), LabTopology.IF_R1, LabHost.REGION1_HOSTS, LabTopology.CIDR_R2, LabHost.REGION2_HOSTS,
                LabTopology.MAC_R2);
        site(t.region2(), LabTopology.IF_R2, LabHost.REGION2_HOSTS, LabTopology.CIDR_R1, LabHost.REGION1_HOSTS,
                LabTopology.MAC_R1);
        Shell.run("ip", "-n", t.region2(), "neigh", "replace", LabTopology.NUDGE_TARGET, "lladdr", LabTopology.MAC_R1,
                "dev", LabTopology.IF_R2, "nud", "permanent");
    }

    private static void veth(String nsA, String ifA, String macA, String nsB, String ifB, String macB)
            throws IOException {
        Shell.run("ip", "-n", nsA, "link", "add", ifA, "address", macA, "type", "veth",
                "peer", "name", ifB, "address", macB, "netns", nsB);
        for (String[] end : List.of(new String[] {nsA, ifA}, new String[] {nsB, ifB})) {
            Shell.inNs(end[0], "ethtool", "-K", end[1], "tso", "off", "gso", "off", "gro", "off", "tx", "off");
            Shell.run("ip", "-n", end[0], "link", "set", end[1], "up");
        }
    }

    private static void site(String ns, String iface, List<LabHost> local, String remoteCidr, List<LabHost> remote,
            String remoteMac) throws IOException {
        for (LabHost h : local) {
            Shell.run("ip", "-n", ns, "addr", "add", h.address() + "/16", "dev", iface);
        }
        Shell.run("ip", "-n", ns, "route", "add", remoteCidr, "dev", iface);
        for (LabHost h : remote) {
            Shell.run("ip", "-n", ns, "neigh", "replace", h.address(), "lladdr", remoteMac, "dev", iface,
                    "nud", "permanent");
        }
    }

    /**
     * Ends every process still inside the lab's namespaces (by PID; never this JVM) and deletes exactly
     * those namespaces, which removes the veth pairs. Does nothing for namespaces that do not exist.
     */
    public static void down(LabTopology t) throws IOException {
        for (String ns : existing(t)) {
            for (String pid : Shell.run("ip", "netns", "pids", ns).split("\\s+")) {
                if (!pid.isBlank() && Long.parseLong(pid) != ProcessHandle.current().pid()) {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(LabNetwork::stop);
                }
            }
            Shell.run("ip", "netns", "del", ns);
        }
    }

    private static List<String> existing(LabTopology t) throws IOException {
        List<String> names = new ArrayList<>();
        for (String line : Shell.run("ip", "netns", "list").split("\n")) {
            String name = line.strip().split("\\s+")[0];
            if (name.equals(t.region1()) || name.equals(t.region2()) || name.equals(t.router())) {
                names.add(name);
            }
        }
        return names;
    }

    static void stop(ProcessHandle p) {
        p.destroy();
        try {
            p.onExit().get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            p.destroyForcibly();
        }
    }
}
