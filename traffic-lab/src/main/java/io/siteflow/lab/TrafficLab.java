package io.siteflow.lab;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The traffic lab as a Java API: two sites in network namespaces joined through a router namespace whose
 * {@link DelayBridge} adds a one-way delay, real servers in region 1 and real clients in region 2 speaking
 * the protocols' framing, and the ground truth of what crossed the router ({@link LabTruth}).
 *
 * <pre>{@code
 * try (TrafficLab lab = TrafficLab.up("e2e", TrafficLab.DEFAULT_DELAY_NANOS)) {
 *     // start an agent inside lab.routerNamespace() on lab.agentInterface() ...
 *     LabTruth truth = lab.run(RunSpec.of(Duration.ofSeconds(10), 0.93).withShare("wls4", 0.80));
 * }
 * }</pre>
 *
 * Needs root, iproute2, ethtool, libpcap (and tcpdump for {@link #record}). Not thread-safe: one run at a
 * time. {@link #close()} stops the bridge and, for a lab this object built, deletes its namespaces.
 */
public final class TrafficLab implements AutoCloseable {
    /** 3.25 ms one way: 6.5 ms RTT between the sites (Frankfurt–Amsterdam). */
    public static final long DEFAULT_DELAY_NANOS = 3_250_000;
    private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(300);
    private static final long TOP_UP_QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(60);

    private final LabTopology topology;
    private final long delayNanos;
    private final boolean owned;
    private DelayBridge bridge;
    private BridgeProcess bridgeProcess;
    private List<BridgeStats> finalStats = List.of();

    private TrafficLab(LabTopology topology, long delayNanos, boolean owned) {
        this.topology = topology;
        this.delayNanos = delayNanos;
        this.owned = owned;
    }

    /**
     * Builds the namespaces for {@code prefix} and starts the bridge in a JVM of its own in the router
     * namespace ({@link BridgeProcess}, log {@code bridge.log} in the temporary directory's
     * {@code siteflow-lab-PREFIX}).
     *
     * @throws java.io.IOException when a namespace of that prefix exists or a command fails (nothing is left behind)
     */
    public static TrafficLab up(String prefix, long delayNanos) throws Exception {
        TrafficLab lab = new TrafficLab(new LabTopology(prefix), delayNanos, true);
        LabNetwork.up(lab.topology);
        try {
            Path dir = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir"), "siteflow-lab-" + prefix));
            lab.bridgeProcess = BridgeProcess.start(lab.topology, delayNanos, dir.resolve("bridge.log"));
        } catch (Exception e) {
            LabNetwork.down(lab.topology);
            throw e;
        }
        return lab;
    }

    /** As {@link #up} with the bridge on threads of this JVM (its GC pauses then delay frames too). */
    public static TrafficLab upInProcess(String prefix, long delayNanos) throws Exception {
        TrafficLab lab = new TrafficLab(new LabTopology(prefix), delayNanos, true);
        LabNetwork.up(lab.topology);
        try {
            lab.bridge = DelayBridge.start(lab.topology.router(), LabTopology.IF_RT_R1, LabTopology.IF_RT_R2,
                    delayNanos);
        } catch (Exception e) {
            LabNetwork.down(lab.topology);
            throw e;
        }
        return lab;
    }

    /**
     * A lab built and bridged by another process ({@code lab.sh up}); {@link #close()} leaves it standing.
     *
     * @throws IllegalStateException when its namespaces do not exist
     */
    public static TrafficLab attach(String prefix, long delayNanos) throws Exception {
        LabTopology t = new LabTopology(prefix);
        if (!LabNetwork.exists(t)) {
            throw new IllegalStateException("lab " + prefix + " is not up (no namespace " + t.router() + ")");
        }
        return new TrafficLab(t, delayNanos, false);
    }

    public LabTopology topology() {
        return topology;
    }

    /** The router's namespace, where an agent, tcpdump or iftop watching the sites' traffic runs. */
    public String routerNamespace() {
        return topology.router();
    }

    /** The router's region-2 interface ({@code rt-r2}): every cross-site packet passes it, both ways. */
    public String agentInterface() {
        return LabTopology.IF_RT_R2;
    }

    /** The PID of the bridge's JVM while it runs; empty for an in-process bridge or an attached lab. */
    public java.util.OptionalLong bridgePid() {
        return bridgeProcess == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(bridgeProcess.pid());
    }

    /**
     * The bridge's counters: live for an in-process bridge, the final ones after {@link #close()} for a bridge
     * process; empty for an attached lab.
     */
    public List<BridgeStats> bridgeStats() {
        return bridge != null ? bridge.stats() : finalStats;
    }

    /**
     * Gives {@code host} (an address that is not one of {@link LabHost#all()}) to its site, reachable across the
     * router like the lab's hosts ({@link LabNetwork#address}). The address goes with the namespaces.
     */
    public void addHost(LabHost host) throws java.io.IOException {
        LabNetwork.address(topology, host);
    }

    /** Runs the traffic of {@code spec} and returns what crossed the router. */
    public LabTruth run(RunSpec spec) throws Exception {
        long start = Instant.now().toEpochMilli();
        List<HostTraffic> hosts = new ArrayList<>();
        try (WireCounter counter = WireCounter.start(topology.router(), LabTopology.IF_RT_R2);
                LabServers servers = LabServers.start(topology.region1(), spec.seed(), spec.dbServiceTime().toNanos())) {
            try {
                long seed = spec.seed();
                for (LabHost h : LabHost.REGION2_HOSTS) {
                    HostTraffic t = new HostTraffic(topology.region2(), h, spec.shares().get(h.address()), counter,
                            ++seed * 7919);
                    hosts.add(t);
                    t.start();
                }
                long deadline = System.nanoTime() + spec.duration().toNanos();
                while (System.nanoTime() < deadline) {
                    LockSupport.parkNanos(deadline - System.nanoTime());
                }
                for (HostTraffic t : hosts) {
                    t.stopBackground();
                }
                settle(counter, QUIET_NANOS);
                for (HostTraffic t : hosts) {
                    t.topUp(() -> settle(counter, TOP_UP_QUIET_NANOS));
                }
            } finally {
                for (HostTraffic t : hosts) {
                    t.stopBackground();
                    t.close();
                }
            }
            settle(counter, QUIET_NANOS);
            servers.close();
            counter.close();
            Map<String, DbCallTruth> dbCalls = new LinkedHashMap<>();
            for (int i = 0; i < hosts.size(); i++) {
                dbCalls.put(LabHost.REGION2_HOSTS.get(i).address(), hosts.get(i).dbCalls());
            }
            return new LabTruth(topology.prefix(), LabTopology.IF_RT_R2, delayNanos / 1000, start,
                    Instant.now().toEpochMilli(), spec.shares(), counter.packets(), counter.ipBytes(),
                    counter.otherFrames(), counter.droppedKernel(), counter.snapshot(), dbCalls);
        }
    }

    /**
     * {@link #run} while tcpdump records the router's region-2 interface into {@code pcap}: the demo capture.
     *
     * @throws java.io.IOException when tcpdump dropped packets, so the file would not match the truth
     */
    public LabTruth record(Path pcap, RunSpec spec) throws Exception {
        LabRecorder recorder = LabRecorder.start(topology.router(), LabTopology.IF_RT_R2, pcap);
        LabTruth truth;
        try {
            truth = run(spec);
        } finally {
            long drops = recorder.stop();
            if (drops != 0) {
                throw new java.io.IOException(pcap + ": tcpdump dropped " + drops + " packets");
            }
        }
        return truth;
    }

    /**
     * Sends one UDP datagram (9 bytes of payload, port 9) from wls3 to {@value LabTopology#NUDGE_TARGET}, which
     * crosses the router but is outside region 1: captures blocked on an idle interface wake up (an
     * {@code iftop -t -s N} only ends on a packet after its N seconds), and those filtered with
     * {@code -F 10.1.0.0/16} (iftop, the agent) do not count it. Call it after {@link #run}, not during one:
     * the lab's own counter would count it.
     */
    public void nudge() throws Exception {
        Netns.call(topology.region2(), () -> {
            try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(LabHost.WLS3.address(), 0))) {
                byte[] b = "lab-nudge".getBytes(StandardCharsets.US_ASCII);
                s.send(new DatagramPacket(b, b.length, new InetSocketAddress(LabTopology.NUDGE_TARGET, 9)));
            }
            return null;
        });
    }

    /** Waits until the counter has seen no frame for {@code quietNanos} (at most 10 s). */
    private static void settle(WireCounter counter, long quietNanos) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (counter.quietNanos() < quietNanos && System.nanoTime() < deadline) {
            LockSupport.parkNanos(quietNanos - counter.quietNanos());
        }
    }

    /** Stops the bridge; deletes the namespaces when this object built them. Idempotent. */
    @Override
    public void close() throws java.io.IOException {
        if (bridge != null) {
            finalStats = bridge.stats();
            bridge.close();
            bridge = null;
        }
        if (bridgeProcess != null) {
            try {
                finalStats = bridgeProcess.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            bridgeProcess = null;
        }
        if (owned) {
            LabNetwork.down(topology);
        }
    }
}
