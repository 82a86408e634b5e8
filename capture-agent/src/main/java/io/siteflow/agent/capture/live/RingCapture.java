package io.siteflow.agent.capture.live;

import io.siteflow.agent.capture.CaptureFailure;
import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.capture.PacketHandler;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Live capture on one Ethernet interface from a TPACKET_V3 ring read in Java ({@code --capture-api ring}, the
 * default): no native call per packet. {@link RingSocket} sets the socket up (JNA: {@code socket},
 * {@code setsockopt}, {@code mmap}, {@code bind}); {@link #run} walks each block the kernel has retired to user
 * space ({@code block_status & TP_STATUS_USER}) packet by packet ({@code tp_next_offset}) out of one
 * {@link ByteBuffer} over the mapping, and hands the block back ({@code TP_STATUS_KERNEL}, a release store) when
 * its packets are delivered; only when the next block is still the kernel's does it call {@code poll(2)}.
 *
 * <p>As libpcap's {@code pcap_read_linux_mmap_v3} and {@code pcap_handle_packet_mmap} (pcap-linux.c) do: the time is
 * {@code tp_sec}, {@code tp_nsec}; a tag the kernel took out of the frame ({@code tp_vlan_tci} non-zero or
 * {@code TP_STATUS_VLAN_VALID}) is put back after the two MAC addresses with its TPID ({@code tp_vlan_tpid} when
 * valid, else 0x8100) and counts 4 bytes more in both lengths; the captured bytes are then cut at the snaplen; on a
 * loopback interface outgoing packets are skipped (each is seen again incoming); drops are
 * {@code PACKET_STATISTICS}' {@code tp_drops}, interface drops the interface's missed and FIFO errors since the
 * start. The bytes are copied into one reused array (the decoder reads arrays): the handler gets them at offset 0.
 *
 * <p>The ring is the buffer between the kernel and the handler, so the handler may do the whole work of a packet
 * on this thread (the agent decodes and aggregates here: no queue, no copy per packet beyond the one into the
 * array); while it works, the kernel fills the following blocks, and drops only when every block is full. When no
 * block came within the read timeout the handler's {@link PacketHandler#onIdle} is told the wall-clock time.
 *
 * <p>Threads: as {@link LiveCapture}. {@link #stop()} wakes a waiting {@code poll} through an {@code eventfd}; a
 * block being walked is finished first. A handler that throws ends {@link #run}, which rethrows it unchanged.
 */
public final class RingCapture implements FanoutMember {
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());
    private static final int TP_STATUS_KERNEL = 0;
    private static final int TP_STATUS_USER = 1;
    private static final int TP_STATUS_VLAN_VALID = 1 << 4;
    private static final int TP_STATUS_VLAN_TPID_VALID = 1 << 6;
    /** {@code TPACKET_ALIGN(sizeof(struct tpacket3_hdr))}: where the {@code sockaddr_ll} follows the header. */
    private static final int SOCKADDR_LL = 48;
    private static final int PACKET_OUTGOING = 4;
    private static final int MAC_ADDRESSES = 12;
    private static final int VLAN_TAG = 4;

    private final String iface;
    private final RingSocket socket;
    private final ByteBuffer ring;
    private final int snaplen;
    private final int timeoutMillis;
    private final byte[] data;
    private final ReentrantLock running = new ReentrantLock();
    private volatile boolean stopRequested;
    private volatile boolean closed;
    private final AtomicLong delivered = new AtomicLong();
    private volatile long droppedKernel;
    private volatile long droppedInterface;
    private long lastStatsNanos;
    private int block;

    private RingCapture(RingSocket socket, int snaplen, int timeoutMillis) {
        this.iface = socket.iface;
        this.socket = socket;
        this.ring = socket.ring();
        this.snaplen = snaplen;
        this.timeoutMillis = timeoutMillis;
        this.data = new byte[snaplen];
    }

    /** Opens the ring with the settings; the errors are {@link LiveCapture.Builder#build()}'s. */
    static RingCapture open(LiveCaptureSettings s) throws CaptureFailure {
        return new RingCapture(RingSocket.open(s), s.snaplen(), Math.min(s.timeoutMillis(), 1000));
    }

    @Override
    public int socket() {
        return socket.fd;
    }

    /** Bytes per ring block and blocks in the ring. */
    int[] geometry() {
        return new int[] {socket.blockSize, socket.blocks};
    }

    @Override
    public void run(PacketHandler handler) throws CaptureFailure {
        Objects.requireNonNull(handler, "handler");
        running.lock();
        try {
            if (closed) {
                return;
            }
            while (!stopRequested) {
                int base = block * socket.blockSize;
                if (((int) INT.getAcquire(ring, base + 8) & TP_STATUS_USER) == 0) {
                    refreshStats(false);
                    if (!socket.poll(timeoutMillis) && ((int) INT.getAcquire(ring, base + 8) & TP_STATUS_USER) == 0
                            && !stopRequested) {
                        handler.onIdle(System.currentTimeMillis() * 1_000_000L);
                    }
                    continue;
                }
                walk(base, handler);
                INT.setRelease(ring, base + 8, TP_STATUS_KERNEL);
                block = block + 1 == socket.blocks ? 0 : block + 1;
                refreshStats(false);
            }
        } finally {
            refreshStats(true);
            running.unlock();
        }
    }

    /** Delivers the packets of the block at {@code base}. */
    private void walk(int base, PacketHandler handler) throws CaptureFailure {
        int packets = ring.getInt(base + 12);
        int at = base + ring.getInt(base + 16);
        long count = delivered.get();
        for (int i = 0; i < packets; i++) {
            if (deliver(at, base, handler)) {
                delivered.lazySet(++count);
            }
            at += ring.getInt(at);
        }
    }

    /** Delivers the packet whose {@code tpacket3_hdr} is at {@code p}; false when it is skipped. */
    private boolean deliver(int p, int base, PacketHandler handler) throws CaptureFailure {
        int capLen = ring.getInt(p + 12);
        int wireLen = ring.getInt(p + 16);
        int status = ring.getInt(p + 20);
        int mac = p + (ring.getShort(p + 24) & 0xFFFF);
        if (mac + capLen > base + socket.blockSize) {
            throw new CaptureFailure(iface + ": capture failed: corrupted frame on kernel ring: mac offset "
                    + (mac - p) + " + caplen " + capLen + " beyond the block");
        }
        if (socket.loopback && ring.get(p + SOCKADDR_LL + 10) == PACKET_OUTGOING) {
            return false;
        }
        long nanos = (ring.getInt(p + 4) & 0xFFFF_FFFFL) * 1_000_000_000L + (ring.getInt(p + 8) & 0xFFFF_FFFFL);
        int tci = ring.getInt(p + 32);
        if ((tci != 0 || (status & TP_STATUS_VLAN_VALID) != 0) && capLen >= MAC_ADDRESSES) {
            int tpid = ring.getShort(p + 36) & 0xFFFF;
            if (tpid == 0 && (status & TP_STATUS_VLAN_TPID_VALID) == 0) {
                tpid = 0x8100;
            }
            ring.get(mac, data, 0, MAC_ADDRESSES);
            data[12] = (byte) (tpid >>> 8);
            data[13] = (byte) tpid;
            data[14] = (byte) (tci >>> 8);
            data[15] = (byte) tci;
            int rest = Math.min(capLen - MAC_ADDRESSES, snaplen - MAC_ADDRESSES - VLAN_TAG);
            ring.get(mac + MAC_ADDRESSES, data, MAC_ADDRESSES + VLAN_TAG, rest);
            capLen += VLAN_TAG;
            wireLen += VLAN_TAG;
        } else {
            ring.get(mac, data, 0, Math.min(capLen, snaplen));
        }
        handler.onPacket(nanos, RingSocket.LINKTYPE_ETHERNET, data, 0, Math.min(capLen, snaplen), wireLen);
        return true;
    }

    /** True: the ring holds the packets while the handler works, and an idle handler is told the time. */
    @Override
    public boolean buffersPackets() {
        return true;
    }

    @Override
    public void stop() {
        stopRequested = true;
        socket.wake();
    }

    @Override
    public CaptureStats stats() {
        return new CaptureStats(delivered.get(), droppedKernel, droppedInterface);
    }

    @Override
    public String name() {
        return iface;
    }

    /** Stops a running capture, waits until {@link #run} has returned, unmaps the ring and closes the socket. */
    @Override
    public void close() {
        stop();
        running.lock();
        try {
            if (!closed) {
                closed = true;
                socket.close();
            }
        } finally {
            running.unlock();
        }
    }

    private void refreshStats(boolean force) {
        long now = System.nanoTime();
        if (closed || !force && now - lastStatsNanos < LiveCapture.STATS_REFRESH_MILLIS * 1_000_000L) {
            return;
        }
        lastStatsNanos = now;
        droppedKernel += socket.dropsSinceLastRead();
        droppedInterface = socket.interfaceDrops();
    }
}
