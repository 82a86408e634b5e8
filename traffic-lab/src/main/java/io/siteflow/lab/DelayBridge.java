package io.siteflow.lab;

import java.util.ArrayList;
import java.util.List;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapHandle.PcapDirection;
import org.pcap4j.core.PcapHandle.TimestampPrecision;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface.PromiscuousMode;

/**
 * The lab's router: a user-space Ethernet bridge between two interfaces of one namespace that holds every
 * frame for a fixed one-way delay (netem is not available on this kernel). Each interface has one pcap4j
 * handle in immediate mode that captures only incoming frames ({@code PCAP_D_IN}); a frame captured on one
 * side is injected, byte for byte, on the other side once {@code delayNanos} have passed since it was
 * captured. Nothing is rewritten (MACs, TTL, checksums stay), so TCP handshakes, RTT and addresses stay
 * end to end; the kernel of the router's namespace forwards nothing itself.
 *
 * <p>Threads: per direction one capture thread and one sender thread, all daemons; {@link #close()} from any
 * thread stops them and releases the handles. {@link #stats()} from any thread.
 */
public final class DelayBridge implements AutoCloseable {
    private static final int SNAPLEN = 65_536;
    private static final int BUFFER_BYTES = 16 << 20;

    private final List<BridgeLane> lanes = new ArrayList<>();
    private final List<PcapHandle> handles = new ArrayList<>();
    private final long delayNanos;

    private DelayBridge(long delayNanos) {
        this.delayNanos = delayNanos;
    }

    /**
     * Opens both interfaces inside namespace {@code ns} and starts bridging them.
     *
     * @param delayNanos one-way delay added to every frame, 0 to 1 s
     * @throws IllegalArgumentException for a delay out of range
     * @throws Exception                when an interface cannot be opened (pcap4j's exception, unchanged)
     */
    public static DelayBridge start(String ns, String ifaceA, String ifaceB, long delayNanos) throws Exception {
        if (delayNanos < 0 || delayNanos > 1_000_000_000L) {
            throw new IllegalArgumentException("bridge delay " + delayNanos + " ns: 0 to 1 s");
        }
        DelayBridge bridge = new DelayBridge(delayNanos);
        try {
            PcapHandle a = Netns.call(ns, () -> open(ifaceA));
            bridge.handles.add(a);
            PcapHandle b = Netns.call(ns, () -> open(ifaceB));
            bridge.handles.add(b);
            bridge.lanes.add(new BridgeLane(ifaceA + ">" + ifaceB, a, b, delayNanos));
            bridge.lanes.add(new BridgeLane(ifaceB + ">" + ifaceA, b, a, delayNanos));
        } catch (Exception e) {
            bridge.close();
            throw e;
        }
        bridge.lanes.forEach(BridgeLane::start);
        return bridge;
    }

    private static PcapHandle open(String iface) throws PcapNativeException {
        PcapHandle h = new PcapHandle.Builder(iface)
                .snaplen(SNAPLEN)
                .bufferSize(BUFFER_BYTES)
                .promiscuousMode(PromiscuousMode.PROMISCUOUS)
                .immediateMode(true)
                .timestampPrecision(TimestampPrecision.NANO)
                .timeoutMillis(1)
                .build();
        try {
            h.setDirection(PcapDirection.IN);
        } catch (Exception e) {
            h.close();
            throw new PcapNativeException(iface + ": cannot capture incoming frames only: " + e.getMessage());
        }
        return h;
    }

    /** The one-way delay in nanoseconds. */
    public long delayNanos() {
        return delayNanos;
    }

    /** Counters of both directions, A→B first. */
    public List<BridgeStats> stats() {
        return lanes.stream().map(BridgeLane::stats).toList();
    }

    /** Stops both directions (frames still held are dropped) and closes the handles. Idempotent. */
    @Override
    public void close() {
        lanes.forEach(BridgeLane::stop);
        lanes.forEach(BridgeLane::join);
        for (PcapHandle h : handles) {
            if (h.isOpen()) {
                h.close();
            }
        }
        handles.clear();
    }
}
