package io.siteflow.agent.capture.live;

import static io.siteflow.agent.capture.live.RingNative.LIBC;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import io.siteflow.agent.capture.CaptureFailure;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An {@code AF_PACKET} socket with a TPACKET_V3 receive ring mapped into this process, set up as libpcap sets up
 * its own (pcap-linux.c), in an order that lets no unfiltered packet in: the socket is made with protocol 0 (it
 * receives nothing), then {@code PACKET_VERSION}, the BPF filter ({@code SO_ATTACH_FILTER}, compiled by libpcap
 * with the snaplen as its return value, so the kernel cuts every packet at the snaplen: an empty expression still
 * attaches {@code ret #snaplen}), {@code PACKET_RX_RING} and {@code mmap}, and only then {@code bind} to the
 * interface for every protocol. An {@code eventfd} beside the socket lets {@link #wake()} end a {@code poll}.
 *
 * <p>Ring geometry: blocks of 1 MiB (smaller for rings under 8 MiB: at least 8 blocks, at least a page and room
 * for a snaplen packet), as many as fit the buffer; the kernel retires a partly filled block after the read
 * timeout. Not thread-safe except {@link #wake()}; {@link #close()} once, after the reader has left.
 */
final class RingSocket {
    static final int LINKTYPE_ETHERNET = 1;
    private static final int ARPHRD_ETHER = 1;
    private static final int ARPHRD_LOOPBACK = 772;
    private static final int PAGE = 4096;

    final String iface;
    final int fd;
    final int wakeFd;
    final int blockSize;
    final int blocks;
    final boolean loopback;
    private final Pointer mapped;
    private final ByteBuffer ring;
    private final long ifDropsAtOpen;
    private final Memory stats = new Memory(12);
    private final Memory statsLength = new Memory(4);
    private final Memory pollFds = new Memory(16);
    private boolean closed;

    private RingSocket(String iface, int fd, int wakeFd, int blockSize, int blocks, Pointer mapped, boolean loopback) {
        this.iface = iface;
        this.fd = fd;
        this.wakeFd = wakeFd;
        this.blockSize = blockSize;
        this.blocks = blocks;
        this.mapped = mapped;
        this.loopback = loopback;
        this.ring = mapped.getByteBuffer(0, (long) blockSize * blocks).order(ByteOrder.nativeOrder());
        this.ifDropsAtOpen = interfaceDropsSinceBoot(iface);
    }

    /** Opens the socket, sets the ring and the filter, binds it to the interface. */
    static RingSocket open(LiveCaptureSettings s) throws CaptureFailure {
        String iface = s.iface();
        int index = LIBC.if_nametoindex(iface);
        if (index == 0) {
            throw new CaptureFailure(OpenErrors.noSuchInterface(iface, OpenErrors.interfaceNames()));
        }
        BpfCode filter = BpfCode.compile(iface, s.bpfFilter(), s.snaplen());
        int fd;
        try {
            fd = LIBC.socket(RingNative.AF_PACKET, RingNative.SOCK_RAW, 0);
        } catch (LastErrorException e) {
            throw e.getErrorCode() == RingNative.EPERM || e.getErrorCode() == RingNative.EACCES
                    ? OpenErrors.capturingNotPermitted(iface) : failure(iface, "socket", e);
        }
        int wakeFd = -1;
        Pointer mapped = null;
        int blockSize = blockSize(s.bufferBytes(), s.snaplen());
        int blocks = Math.max(1, s.bufferBytes() / blockSize);
        try {
            setInt(iface, fd, RingNative.SOL_PACKET, RingNative.PACKET_VERSION, RingNative.TPACKET_V3, "PACKET_VERSION");
            setOption(iface, fd, RingNative.SOL_SOCKET, RingNative.SO_ATTACH_FILTER, filter.program(), 16,
                    "SO_ATTACH_FILTER");
            setOption(iface, fd, RingNative.SOL_PACKET, RingNative.PACKET_RX_RING,
                    ringRequest(blockSize, blocks, s.timeoutMillis()), 28, "PACKET_RX_RING");
            mapped = LIBC.mmap(null, (long) blockSize * blocks, RingNative.PROT_READ | RingNative.PROT_WRITE,
                    RingNative.MAP_SHARED, fd, 0);
            wakeFd = LIBC.eventfd(0, RingNative.EFD_NONBLOCK);
            int hatype = bind(iface, fd, index);
            if (hatype != ARPHRD_ETHER && hatype != ARPHRD_LOOPBACK) {
                throw new CaptureFailure(iface + ": the TPACKET_V3 reader takes Ethernet interfaces only (this one's "
                        + "ARPHRD type is " + hatype + "); use --capture-api libpcap");
            }
            if (s.promiscuous()) {
                promiscuous(iface, fd, index);
            }
            return new RingSocket(iface, fd, wakeFd, blockSize, blocks, mapped, hatype == ARPHRD_LOOPBACK);
        } catch (CaptureFailure | RuntimeException e) {
            closeQuietly(fd, wakeFd, mapped, (long) blockSize * blocks);
            if (e instanceof LastErrorException l) {
                throw failure(iface, "mmap", l);
            }
            throw e;
        } finally {
            filter.free();
        }
    }

    /** Block size: 1 MiB, halved while the buffer would hold fewer than 8 blocks, never under a page or a packet. */
    static int blockSize(int bufferBytes, int snaplen) {
        int least = PAGE;
        while (least < snaplen + 128) {
            least <<= 1;
        }
        int size = 1 << 20;
        while (size > least && bufferBytes / size < 8) {
            size >>= 1;
        }
        return Math.max(size, least);
    }

    /** The mapped ring, native byte order. */
    ByteBuffer ring() {
        return ring;
    }

    /**
     * Waits up to {@code millis} for the socket or {@link #wake()}.
     *
     * @return true when the wait ended with a wake-up
     * @throws CaptureFailure when the socket reports an error ({@code The interface disappeared} for ENETDOWN)
     */
    boolean poll(int millis) throws CaptureFailure {
        pollFds.setInt(0, fd);
        pollFds.setShort(4, RingNative.POLLIN);
        pollFds.setShort(6, (short) 0);
        pollFds.setInt(8, wakeFd);
        pollFds.setShort(12, RingNative.POLLIN);
        pollFds.setShort(14, (short) 0);
        try {
            LIBC.poll(pollFds, 2, millis);
        } catch (LastErrorException e) {
            if (e.getErrorCode() == RingNative.EINTR) {
                return false;
            }
            throw new CaptureFailure(iface + ": capture failed: poll: " + LIBC.strerror(e.getErrorCode()), e);
        }
        short revents = pollFds.getShort(6);
        if ((revents & (RingNative.POLLERR | RingNative.POLLHUP | RingNative.POLLNVAL)) != 0) {
            throw new CaptureFailure(iface + ": capture failed: " + socketError(revents));
        }
        return pollFds.getShort(14) != 0;
    }

    /** Ends a {@link #poll} in progress (or the next one); safe from any thread while the socket is open. */
    synchronized void wake() {
        if (closed) {
            return;
        }
        Memory one = new Memory(8);
        one.setLong(0, 1);
        try {
            LIBC.write(wakeFd, one, 8);
        } catch (LastErrorException e) {
            // the counter is already set (EAGAIN): a wake-up is pending anyway
        }
    }

    /** Packets the kernel dropped since the last call ({@code PACKET_STATISTICS} resets its counters on read). */
    long dropsSinceLastRead() {
        statsLength.setInt(0, 12);
        try {
            LIBC.getsockopt(fd, RingNative.SOL_PACKET, RingNative.PACKET_STATISTICS, stats, statsLength);
        } catch (LastErrorException e) {
            return 0;
        }
        return stats.getInt(4) & 0xFFFF_FFFFL;
    }

    /** Drops the interface counted since the socket opened (rx_missed_errors + rx_fifo_errors, as libpcap). */
    long interfaceDrops() {
        return Math.max(0, interfaceDropsSinceBoot(iface) - ifDropsAtOpen);
    }

    synchronized void close() {
        closed = true;
        closeQuietly(fd, wakeFd, mapped, (long) blockSize * blocks);
    }

    private static long interfaceDropsSinceBoot(String iface) {
        return sysfsStat(iface, "rx_missed_errors") + sysfsStat(iface, "rx_fifo_errors");
    }

    private static long sysfsStat(String iface, String name) {
        try {
            return Long.parseLong(Files.readString(Path.of("/sys/class/net", iface, "statistics", name)).strip());
        } catch (Exception e) {
            return 0; // as libpcap: a counter that cannot be read counts nothing
        }
    }

    private String socketError(short revents) {
        if ((revents & RingNative.POLLERR) != 0) {
            Memory err = new Memory(4);
            Memory len = new Memory(4);
            len.setInt(0, 4);
            try {
                LIBC.getsockopt(fd, RingNative.SOL_SOCKET, RingNative.SO_ERROR, err, len);
            } catch (LastErrorException e) {
                return "error on the packet socket";
            }
            int errno = err.getInt(0);
            return errno == RingNative.ENETDOWN ? "The interface disappeared" : LIBC.strerror(errno);
        }
        return (revents & RingNative.POLLHUP) != 0 ? "Hangup on packet socket" : "Invalid polling request";
    }

    private static Memory ringRequest(int blockSize, int blocks, int timeoutMillis) {
        int frameSize = 2048;
        Memory req = new Memory(28);
        req.setInt(0, blockSize);
        req.setInt(4, blocks);
        req.setInt(8, frameSize);
        req.setInt(12, blockSize / frameSize * blocks);
        req.setInt(16, timeoutMillis);
        req.setInt(20, 0);
        req.setInt(24, 0);
        return req;
    }

    /** Binds the socket to the interface for every protocol; returns the interface's ARPHRD type. */
    private static int bind(String iface, int fd, int index) throws CaptureFailure {
        Memory sll = new Memory(20);
        sll.clear();
        sll.setShort(0, (short) RingNative.AF_PACKET);
        sll.setShort(2, Short.reverseBytes((short) RingNative.ETH_P_ALL));
        sll.setInt(4, index);
        try {
            LIBC.bind(fd, sll, 20);
        } catch (LastErrorException e) {
            if (e.getErrorCode() == RingNative.ENETDOWN) {
                throw new CaptureFailure(iface + ": interface is down", e);
            }
            if (e.getErrorCode() == RingNative.ENODEV || e.getErrorCode() == RingNative.ENXIO) {
                throw new CaptureFailure(OpenErrors.noSuchInterface(iface, OpenErrors.interfaceNames()), e);
            }
            throw failure(iface, "bind", e);
        }
        Memory name = new Memory(20);
        Memory len = new Memory(4);
        len.setInt(0, 20);
        return hardwareType(iface, fd, name, len);
    }

    private static int hardwareType(String iface, int fd, Memory name, Memory len) throws CaptureFailure {
        try {
            LIBC.getsockname(fd, name, len);
        } catch (LastErrorException e) {
            throw failure(iface, "getsockname", e);
        }
        return name.getShort(8) & 0xFFFF;
    }

    private static void promiscuous(String iface, int fd, int index) throws CaptureFailure {
        Memory mreq = new Memory(16);
        mreq.clear();
        mreq.setInt(0, index);
        mreq.setShort(4, (short) RingNative.PACKET_MR_PROMISC);
        try {
            LIBC.setsockopt(fd, RingNative.SOL_PACKET, RingNative.PACKET_ADD_MEMBERSHIP, mreq, 16);
        } catch (LastErrorException e) {
            throw e.getErrorCode() == RingNative.EPERM ? OpenErrors.promiscuousNotPermitted(iface)
                    : failure(iface, "PACKET_ADD_MEMBERSHIP", e);
        }
    }

    private static void setInt(String iface, int fd, int level, int name, int value, String what)
            throws CaptureFailure {
        Memory v = new Memory(4);
        v.setInt(0, value);
        setOption(iface, fd, level, name, v, 4, what);
    }

    private static void setOption(String iface, int fd, int level, int name, Pointer value, int length, String what)
            throws CaptureFailure {
        try {
            LIBC.setsockopt(fd, level, name, value, length);
        } catch (LastErrorException e) {
            throw failure(iface, what, e);
        }
    }

    private static CaptureFailure failure(String iface, String call, LastErrorException e) {
        return new CaptureFailure(iface + ": cannot capture: " + call + ": " + LIBC.strerror(e.getErrorCode()), e);
    }

    private static void closeQuietly(int fd, int wakeFd, Pointer mapped, long length) {
        try {
            if (mapped != null) {
                LIBC.munmap(mapped, length);
            }
        } catch (LastErrorException e) {
            // nothing more to release
        }
        for (int f : new int[] {fd, wakeFd}) {
            try {
                if (f >= 0) {
                    LIBC.close(f);
                }
            } catch (LastErrorException e) {
                // already closed
            }
        }
    }
}
