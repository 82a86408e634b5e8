package io.siteflow.agent.capture.live;

import io.siteflow.agent.capture.CaptureFailure;
import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.capture.PacketHandler;
import io.siteflow.agent.capture.PacketSource;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapStat;

/**
 * Live capture on one network interface through pcap4j (libpcap, TPACKET_V3 on Linux).
 *
 * <p>{@link Builder#build()} opens the interface (and sets the BPF filter), so a bad interface name, a
 * missing capability or a bad filter fails there, before {@link #run}. {@link #run} then calls
 * {@code pcap_dispatch} on the caller's thread and hands every packet to the handler on that thread, with
 * nanosecond timestamps, the interface's link type, the captured bytes (at most the snaplen; offset 0)
 * and the wire length.
 *
 * <p>Threads: {@link #run} on one thread, once; {@link #stop()}, {@link #stats()}, {@link #name()} and
 * {@link #close()} from any thread. {@code stop()} calls {@code pcap_breakloop}, the only way a blocking
 * dispatch on an idle interface returns. {@code stats()} returns counters refreshed by the capture thread
 * between dispatch calls (at most every {@value #STATS_REFRESH_MILLIS} ms) and once more when {@code run}
 * returns, so the values after {@code run} are final; libpcap is never asked from two threads at once.
 * A handler that throws ends {@code run}, which rethrows the handler's exception unchanged.
 */
public final class LiveCapture implements PacketSource {
    /** Least time between two reads of the kernel counters while capturing. */
    static final int STATS_REFRESH_MILLIS = 100;

    private final String iface;
    private final PcapHandle handle;
    private final int linkType;
    private volatile boolean stopRequested;
    private final AtomicLong delivered = new AtomicLong();
    private volatile long droppedKernel;
    private volatile long droppedInterface;
    private long lastStatsNanos;

    private LiveCapture(String iface, PcapHandle handle) {
        this.iface = iface;
        this.handle = handle;
        this.linkType = handle.getDlt().value() & 0xFFFF;
    }

    /** Starts the settings for a capture on {@code iface} (the name as {@code ip link} shows it). */
    public static Builder builder(String iface) {
        return new Builder(iface);
    }

    /** The pcap4j handle, for joining a fan-out group ({@link FanoutCapture}). */
    PcapHandle handle() {
        return handle;
    }

    @Override
    public void run(PacketHandler handler) throws CaptureFailure {
        Objects.requireNonNull(handler, "handler");
        DispatchListener listener = new DispatchListener(handle, linkType, handler, delivered, this::stop);
        try {
            while (!stopRequested && listener.failure() == null) {
                handle.dispatch(-1, listener);
                refreshStats(false);
            }
        } catch (InterruptedException e) {
            // pcap_breakloop: stop() was called (or the handler failed); not a thread interrupt
        } catch (NotOpenException e) {
            // close() ran while capturing: treat as stop
        } catch (PcapNativeException e) {
            throw new CaptureFailure(iface + ": capture failed: " + OpenErrors.libpcapMessage(e), e);
        } finally {
            refreshStats(true);
        }
        rethrow(listener.failure());
    }

    @Override
    public void stop() {
        stopRequested = true;
        try {
            handle.breakLoop();
        } catch (NotOpenException e) {
            // already closed: nothing to stop
        }
    }

    @Override
    public CaptureStats stats() {
        return new CaptureStats(delivered.get(), droppedKernel, droppedInterface);
    }

    @Override
    public String name() {
        return iface;
    }

    /** Stops a running capture, waits until {@link #run} has left libpcap, and releases the handle. */
    @Override
    public void close() {
        stop();
        if (handle.isOpen()) {
            handle.close();
        }
    }

    private void refreshStats(boolean force) {
        long now = System.nanoTime();
        if (!force && now - lastStatsNanos < STATS_REFRESH_MILLIS * 1_000_000L) {
            return;
        }
        lastStatsNanos = now;
        try {
            PcapStat s = handle.getStats();
            droppedKernel = s.getNumPacketsDropped();
            droppedInterface = s.getNumPacketsDroppedByIf();
        } catch (PcapNativeException | NotOpenException e) {
            // keep the last values: counters of a closed or failing handle cannot be read
        }
    }

    private static void rethrow(Throwable failure) {
        if (failure instanceof RuntimeException r) {
            throw r;
        }
        if (failure instanceof Error err) {
            throw err;
        }
    }

    /**
     * Capture settings. Defaults: snaplen 256 bytes, kernel ring buffer 64 MiB, read timeout 250 ms,
     * promiscuous mode off, no BPF filter, immediate mode off (always; it only costs here).
     * Not thread-safe; {@link #build()} may be called more than once, each call opening a new handle.
     */
    public static final class Builder {
        private final LiveCaptureSettings.Mutable settings;

        private Builder(String iface) {
            settings = new LiveCaptureSettings.Mutable(Objects.requireNonNull(iface, "iface"));
        }

        /** Bytes kept of each packet, 1-262144. */
        public Builder snaplen(int bytes) {
            settings.snaplen = bytes;
            return this;
        }

        /** Size of the kernel ring buffer in bytes, at least 65536. */
        public Builder bufferBytes(int bytes) {
            settings.bufferBytes = bytes;
            return this;
        }

        /** How long the kernel may hold a partly filled ring block before handing it over, milliseconds (≥ 1). */
        public Builder timeoutMillis(int millis) {
            settings.timeoutMillis = millis;
            return this;
        }

        /** Whether to put the interface into promiscuous mode. */
        public Builder promiscuous(boolean on) {
            settings.promiscuous = on;
            return this;
        }

        /** A libpcap filter expression (see {@link BpfFilters}); null or blank captures everything. */
        public Builder bpfFilter(String expression) {
            settings.bpfFilter = expression == null ? "" : expression.strip();
            return this;
        }

        /**
         * Opens the interface.
         *
         * @throws IllegalArgumentException for a setting out of range
         * @throws CaptureFailure           when the interface does not exist ({@code no such interface: eth9
         *                                  (interfaces: lo, ens3, any)}), capturing is not permitted ({@code ens3:
         *                                  permission denied: capturing needs CAP_NET_RAW (run as root or grant
         *                                  the capability: setcap cap_net_raw,cap_net_admin+eip /path/to/java)}),
         *                                  the filter does not compile ({@code ens3: bad BPF filter "...": reason})
         *                                  or libpcap fails otherwise ({@code ens3: cannot capture: reason})
         */
        public LiveCapture build() throws CaptureFailure {
            LiveCaptureSettings s = settings.freeze();
            return new LiveCapture(s.iface(), PcapOpener.open(s));
        }
    }
}
