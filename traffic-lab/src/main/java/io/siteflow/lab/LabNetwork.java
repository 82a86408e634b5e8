package io.siteflow.lab;

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
            namespace(ns);
        }
        offloadedVeth(t.region1(), LabTopology.IF_R1, LabTopology.MAC_R1, t.router(), LabTopology.IF_RT_R1,
                LabTopology.MAC_RT_R1);
        offloadedVeth(t.region2(), LabTopology.IF_R2, LabTopology.MAC_R2, t.router(), LabTopology.IF_RT_R2,
                LabTopology.MAC_RT_R2);
        site(t.region1(), LabTopology.IF_R1, LabHost.REGION1_HOSTS, LabTopology.CIDR_R2, LabHost.REGION2_HOSTS,
                LabTopology.MAC_R2);
        site(t.region2(), LabTopology.IF_R2, LabHost.REGION2_HOSTS, LabTopology.CIDR_R1, LabHost.REGION1_HOSTS,
                LabTopology.MAC_R1);
        Shell.run("ip", "-n", t.region2(), "neigh", "replace", LabTopology.NUDGE_TARGET, "lladdr", LabTopology.MAC_R1,
                "dev", LabTopology.IF_R2, "nud", "permanent");
    }

    /**
     * Adds namespace {@code ns} with IPv6 and forwarding off (no neighbour discovery or MLD noise), loopback up;
     * when a step after the add fails, deletes it again before rethrowing.
     */
    public static void namespace(String ns) throws IOException {
        Shell.run("ip", "netns", "add", ns);
        try {
            Shell.inNs(ns, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
                    "net.ipv6.conf.default.disable_ipv6=1", "net.ipv4.ip_forward=0");
            Shell.run("ip", "-n", ns, "link", "set", "lo", "up");
        } catch (IOException | RuntimeException e) {
            delete(ns);
            throw e;
        }
    }

    /** A veth pair, {@code ifA} (MAC {@code macA}) in {@code nsA} and {@code ifB} in {@code nsB}, both ends up. */
    public static void veth(String nsA, String ifA, String macA, String nsB, String ifB, String macB)
            throws IOException {
        vethPair(nsA, ifA, macA, nsB, ifB, macB);
        Shell.run("ip", "-n", nsA, "link", "set", ifA, "up");
        Shell.run("ip", "-n", nsB, "link", "set", ifB, "up");
    }

    private static void vethPair(String nsA, String ifA, String macA, String nsB, String ifB, String macB)
            throws IOException {
        Shell.run("ip", "-n", nsA, "link", "add", ifA, "address", macA, "type", "veth",
                "peer", "name", ifB, "address", macB, "netns", nsB);
    }

    /** Turns the named offloads off on {@code iface} in {@code ns}, e.g. {@code tso gso gro}. */
    public static void offloadsOff(String ns, String iface, String... features) throws IOException {
        List<String> command = new ArrayList<>(List.of("ethtool", "-K", iface));
        for (String f : features) {
            command.add(f);
            command.add("off");
        }
        Shell.inNs(ns, command.toArray(String[]::new));
    }

    private static void offloadedVeth(String nsA, String ifA, String macA, String nsB, String ifB, String macB)
            throws IOException {
        // offloads off before each end comes up, so not one frame is sent with them on
        vethPair(nsA, ifA, macA, nsB, ifB, macB);
        offloadsOff(nsA, ifA, "tso", "gso", "gro", "tx");
        Shell.run("ip", "-n", nsA, "link", "set", ifA, "up");
        offloadsOff(nsB, ifB, "tso", "gso", "gro", "tx");
        Shell.run("ip", "-n", nsB, "link", "set", ifB, "up");
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
     * Adds {@code host}'s address to its site's interface ({@code /16}) and a permanent neighbour entry for it in the
     * other site, so it talks across the router without ARP like the lab's own hosts: an address in a site that the
     * site model need not list (the isolation lab's unlisted host).
     */
    public static void address(LabTopology t, LabHost host) throws IOException {
        boolean r1 = LabTopology.REGION1.equals(host.site());
        Shell.run("ip", "-n", t.namespaceOf(host.site()), "addr", "add", host.address() + "/16", "dev",
                r1 ? LabTopology.IF_R1 : LabTopology.IF_R2);
        Shell.run("ip", "-n", r1 ? t.region2() : t.region1(), "neigh", "replace", host.address(), "lladdr",
                r1 ? LabTopology.MAC_R1 : LabTopology.MAC_R2, "dev", r1 ? LabTopology.IF_R2 : LabTopology.IF_R1,
                "nud", "permanent");
    }

    /**
     * Ends every process still inside the lab's namespaces (by PID; never this JVM) and deletes exactly
     * those namespaces, which removes the veth pairs. Does nothing for namespaces that do not exist.
     */
    public static void down(LabTopology t) throws IOException {
        for (String ns : existing(t)) {
            delete(ns);
        }
    }

    /** Ends every process inside {@code ns} (by PID; never this JVM), then deletes the namespace. */
    public static void delete(String ns) throws IOException {
        for (String pid : Shell.run("ip", "netns", "pids", ns).split("\\s+")) {
            if (!pid.isBlank() && Long.parseLong(pid) != ProcessHandle.current().pid()) {
                ProcessHandle.of(Long.parseLong(pid)).ifPresent(LabNetwork::stop);
            }
        }
        Shell.run("ip", "netns", "del", ns);
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

    /** Asks {@code p} to end, waits up to 5 s, then kills it. */
    public static void stop(ProcessHandle p) {
        p.destroy();
        try {
            p.onExit().get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            p.destroyForcibly();
        }
    }
}
