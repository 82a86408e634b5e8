package io.siteflow.agent.capture.live;

import io.siteflow.agent.capture.CaptureFailure;
import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.capture.PacketHandler;
import io.siteflow.agent.capture.PacketSource;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapStat;

/**
 * Live capture on one network interface through libpcap (TPACKET_V3 on Linux): opened, filtered, counted and
 * closed through pcap4j, read with {@code pcap_next_ex} by JNA direct mapping ({@link PcapNext}).
 *
 * <p>{@link Builder#build()} opens the interface (and sets the BPF filter), so a bad interface name, a
 * missing capability or a bad filter fails there, before {@link #run}. {@link #run} then calls
 * {@code pcap_next_ex} on the caller's thread and hands every packet to the handler on that thread (the bytes
 * in an array reused for the next packet), with
 * nanosecond timestamps, the interface's link type, the captured bytes (at most the snaplen; offset 0)
 * and the wire length.
 *
 * <p>Threads: {@link #run} on one thread, once; {@link #stop()}, {@link #stats()}, {@link #name()} and
 * {@link #close()} from any thread. {@code stop()} calls {@code pcap_breakloop}, the only way a blocking
 * read on an idle interface returns. {@code stats()} returns counters refreshed by the capture thread
 * while capturing (at most every {@value #STATS_REFRESH_MILLIS} ms) and once more when {@code run}
 * returns, so the values after {@code run} are final; libpcap is never asked from two threads at once.
 * A handler that throws ends {@code run}, which rethrows the handler's exception unchanged.
 */
public final class LiveCapture implements FanoutMember {
    /** Least time between two reads of the kernel counters while capturing. */
    static final int STATS_REFRESH_MILLIS = 100;
    /** Mask of the packet count at which the kernel counters may be refreshed while packets flow. */
    private static final long STATS_EVERY_PACKETS = 1023;

    private final String iface;
    private final PcapHandle handle;
    private final int linkType;
    private final int snaplen;
    /** Held by {@link #run} while it is in libpcap: {@link #close} waits for it. */
    private final ReentrantLock running = new ReentrantLock();
    private volatile boolean stopRequested;
    private final AtomicLong delivered = new AtomicLong();
    private volatile long droppedKernel;
    private volatile long droppedInterface;
    private long lastStatsNanos;

    private LiveCapture(String iface, PcapHandle handle, int snaplen) {
        this.iface = iface;
        this.handle = handle;
        this.snaplen = snaplen;
        this.linkType = handle.getDlt().value() & 0xFFFF;
    }

    /** Starts the settings for a capture on {@code iface} (the name as {@code ip link} shows it). */
    public static Builder builder(String iface) {
        return new Builder(iface);
    }

    /** libpcap's packet socket, for joining a fan-out group ({@link FanoutCapture}). */
    @Override
    public int socket() throws CaptureFailure {
        return PacketFanout.fileno(iface, handle);
    }

    @Override
    public void run(PacketHandler handler) throws CaptureFailure {
        Objects.requireNonNull(handler, "handler");
        running.lock();
        try {
            if (!handle.isOpen()) {
                return;
            }
            PcapNext reader = new PcapNext(handle, snaplen);
            long count = delivered.get();
            while (!stopRequested) {
                int rc = reader.next();
                if (rc == PcapNext.PACKET) {
                    delivered.lazySet(++count);
                    handler.onPacket(reader.nanos(), linkType, reader.data(), 0, reader.capLen(), reader.wireLen());
                    if ((count & STATS_EVERY_PACKETS) == 0) {
                        refreshStats(false);
                    }
                } else if (rc == PcapNext.TIMEOUT) {
                    refreshStats(false);
                } else if (rc == PcapNext.BROKEN) {
                    break;
                } else {
                    throw new CaptureFailure(iface + ": capture failed: " + reader.error());
                }
            }
        } finally {
            refreshStats(true);
            running.unlock();
        }
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
        running.lock();
        try {
            if (handle.isOpen()) {
                handle.close();
            }
        } finally {
            running.unlock();
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

    /**
     * Capture settings. Defaults ({@link LiveCaptureLimits}): snaplen 256 bytes, kernel ring buffer 64 MiB, read
     * timeout 250 ms, promiscuous mode off, no BPF filter, immediate mode off (always; it only costs here).
     * Not thread-safe; {@link #build()} may be called more than once, each call opening a new handle.
     */
    public static final class Builder {
        private final LiveCaptureSettings.Mutable settings;

        private Builder(String iface) {
            settings = new LiveCaptureSettings.Mutable(Objects.requireNonNull(iface, "iface"));
        }

        /** Bytes kept of each packet, {@link LiveCaptureLimits#MIN_SNAPLEN}-{@link LiveCaptureLimits#MAX_SNAPLEN}. */
        public Builder snaplen(int bytes) {
            settings.snaplen = bytes;
            return this;
        }

        /** Size of the kernel ring buffer in bytes, {@link LiveCaptureLimits#MIN_BUFFER_BYTES}-{@link
         * LiveCaptureLimits#MAX_BUFFER_BYTES}. */
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
            return new LiveCapture(s.iface(), PcapOpener.open(s), s.snaplen());
        }

        /**
         * Opens the interface for reading its TPACKET_V3 ring from Java ({@link RingCapture}); Ethernet and loopback
         * interfaces only.
         *
         * @throws CaptureFailure as {@link #build()}, and {@code IFACE: the TPACKET_V3 reader takes Ethernet
         *                        interfaces only (...); use --capture-api libpcap} for other link types
         */
        public RingCapture buildRing() throws CaptureFailure {
            return RingCapture.open(settings.freeze());
        }

        /** Opens the interface with the reader named: {@link #buildRing()} or {@link #build()}. */
        public PacketSource open(LiveReader reader) throws CaptureFailure {
            return reader == LiveReader.RING ? buildRing() : build();
        }
    }
}
