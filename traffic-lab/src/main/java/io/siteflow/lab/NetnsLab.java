package io.siteflow.lab;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fixture of the live-capture tests (this module's and the cli's): two network namespaces, A and B, joined by a veth pair: {@code sfa0} (10.99.x.1/24) in A and {@code sfb0}
 * (10.99.x.2/24) in B, IPv6 off in both (no neighbour discovery or MLD noise), loopbacks up. Names carry
 * the JVM's PID and a counter ({@code sfA-<pid>-<n>}), so parallel runs do not meet; the interfaces are
 * created inside the namespaces, so their short names never clash with the host's. Neighbour entries are
 * permanent, so no ARP is sent. Needs root, iproute2, and ethtool for {@link #offloadsOff()}.
 *
 * <p>Code runs inside a namespace in two ways: {@link #exec}/{@link #start} run a command under
 * {@code ip netns exec}; {@link #call} runs Java code on a fresh thread that has entered the namespace
 * with {@code setns(2)}, so sockets and capture handles it opens live in that namespace (they keep
 * working from any thread afterwards).
 *
 * Built with {@link LabNetwork}'s steps, the same ones the traffic lab uses.
 *
 * <p>{@link #close()} ends the processes it started (by PID, then anything else still inside its
 * namespaces, by PID) and deletes exactly the two namespaces it created, which removes the veth pair.
 * Not thread-safe except {@link #call} and {@link #start}.
 */
public final class NetnsLab implements AutoCloseable {
    public static final String IF_A = "sfa0";
    public static final String IF_B = "sfb0";
    /** MAC addresses of {@link #IF_A} and {@link #IF_B} (locally administered). */
    public static final String MAC_A = "02:5f:00:00:00:01";
    public static final String MAC_B = "02:5f:00:00:00:02";
    private static final AtomicInteger SEQ = new AtomicInteger();

    private final String nsA;
    private final String nsB;
    private final int subnet;
    private final List<String> created = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();

    private NetnsLab(long pid, int seq) {
        this.nsA = "sfA-" + pid + "-" + seq;
        this.nsB = "sfB-" + pid + "-" + seq;
        this.subnet = seq % 250 + 1;
    }

    /** Creates both namespaces and the veth pair, addressed and up. */
    public static NetnsLab create() throws IOException {
        NetnsLab lab = new NetnsLab(ProcessHandle.current().pid(), SEQ.incrementAndGet());
        return lab.configure(lab::build);
    }

    private void build() throws IOException {
        for (String ns : List.of(nsA, nsB)) {
            LabNetwork.namespace(ns);
            created.add(ns);
        }
        LabNetwork.veth(nsA, IF_A, MAC_A, nsB, IF_B, MAC_B);
        addressPair(addressA(), addressB());
    }

    /** Turns off TSO, GSO and GRO on both ends, so a captured packet is one wire frame (≤ MTU). */
    public NetnsLab offloadsOff() throws IOException {
        return configure(() -> {
            LabNetwork.offloadsOff(nsA, IF_A, "tso", "gso", "gro");
            LabNetwork.offloadsOff(nsB, IF_B, "tso", "gso", "gro");
        });
    }

    /** Adds a second IPv4 address pair, 10.98.x.1/24 on A and 10.98.x.2/24 on B. */
    public NetnsLab secondSubnet() throws IOException {
        return configure(() -> addressPair("10.98." + subnet + ".1", "10.98." + subnet + ".2"));
    }

    /**
     * Turns IPv6 on for the veth pair only, quietly: no link-local address (so no router solicitation), no duplicate
     * address detection, {@code fd99:x::1/64} on A and {@code fd99:x::2/64} on B with permanent neighbour entries
     * (no neighbour discovery). What remains is the MLD report of each address's solicited-node group, sent from
     * {@code ::} when the address is added: a test that must not see it filters on the pair's addresses.
     */
    public NetnsLab ipv6() throws IOException {
        return configure(() -> {
            for (String[] end : new String[][] {{nsA, IF_A, addressA6()}, {nsB, IF_B, addressB6()}}) {
                Shell.inNs(end[0], "sysctl", "-qw", "net.ipv6.conf." + end[1] + ".addr_gen_mode=1",
                        "net.ipv6.conf." + end[1] + ".accept_dad=0", "net.ipv6.conf." + end[1] + ".disable_ipv6=0");
                run("ip", "-n", end[0], "-6", "addr", "add", end[2] + "/64", "dev", end[1], "nodad");
            }
            run("ip", "-n", nsA, "-6", "neigh", "replace", addressB6(), "lladdr", MAC_B, "dev", IF_A, "nud",
                    "permanent");
            run("ip", "-n", nsB, "-6", "neigh", "replace", addressA6(), "lladdr", MAC_A, "dev", IF_B, "nud",
                    "permanent");
        });
    }

    /** {@code fd99:x::1}, the IPv6 address of {@link #IF_A} after {@link #ipv6()}. */
    public String addressA6() {
        return "fd99:" + subnet + "::1";
    }

    /** {@code fd99:x::2}, the IPv6 address of {@link #IF_B} after {@link #ipv6()}. */
    public String addressB6() {
        return "fd99:" + subnet + "::2";
    }

    /** Addresses a on A and b on B (/24), with permanent neighbour entries: the pair never sends ARP. */
    private void addressPair(String a, String b) throws IOException {
        run("ip", "-n", nsA, "addr", "add", a + "/24", "dev", IF_A);
        run("ip", "-n", nsB, "addr", "add", b + "/24", "dev", IF_B);
        run("ip", "-n", nsA, "neigh", "replace", b, "lladdr", MAC_B, "dev", IF_A, "nud", "permanent");
        run("ip", "-n", nsB, "neigh", "replace", a, "lladdr", MAC_A, "dev", IF_B, "nud", "permanent");
    }

    /**
     * Runs a configuration step; when it fails, the lab is closed before the exception propagates, so a
     * lab configured inside a try-with-resources header ({@code create().offloadsOff()}) never leaks.
     */
    private NetnsLab configure(IoStep step) throws IOException {
        try {
            step.run();
            return this;
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private interface IoStep {
        void run() throws IOException;
    }

    public String nsA() {
        return nsA;
    }

    public String nsB() {
        return nsB;
    }

    /** {@code 10.99.x.1}, the address of {@link #IF_A}. */
    public String addressA() {
        return "10.99." + subnet + ".1";
    }

    /** {@code 10.99.x.2}, the address of {@link #IF_B}. */
    public String addressB() {
        return "10.99." + subnet + ".2";
    }

    /** The x of 10.99.x.0/24 and 10.98.x.0/24. */
    public int subnet() {
        return subnet;
    }

    /** Runs a command inside a namespace, waits up to 60 s and returns its standard output. */
    public String exec(String ns, String... command) throws IOException {
        return Shell.inNs(ns, command);
    }

    /** Starts a command inside a namespace, output to {@code log}; {@link #close()} ends it if still running. */
    public synchronized Process start(String ns, List<String> command, Path log) throws IOException {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", ns));
        full.addAll(command);
        Process p = new ProcessBuilder(full).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        processes.add(p);
        return p;
    }

    /** Runs {@code task} on a new thread that has entered namespace {@code ns}; returns its result. */
    public <T> T call(String ns, Callable<T> task) throws Exception {
        return Netns.call(ns, task);
    }

    @Override
    public synchronized void close() {
        for (Process p : processes) {
            LabNetwork.stop(p.toHandle());
        }
        for (String ns : created) {
            try {
                LabNetwork.delete(ns);
            } catch (IOException e) {
                System.err.println("NetnsLab: cleaning up " + ns + ": " + e.getMessage());
            }
        }
        created.clear();
    }

    private static void run(String... command) throws IOException {
        Shell.run(command);
    }
}
