package io.siteflow.agent.capture.live;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * The C calls a TPACKET_V3 ring needs, through JNA: only set-up, {@code poll(2)}, the socket statistics and the
 * tear-down; no call per packet ({@link RingCapture} reads the packets out of the mapped ring in Java). The BPF
 * filter is compiled by libpcap on a dead handle ({@code pcap_open_dead}, {@code pcap_compile}), the code libpcap
 * itself would attach to the socket. Linux x86-64/arm64 constants ({@code <linux/if_packet.h>},
 * {@code <asm-generic/socket.h>}).
 */
final class RingNative {
    static final int AF_PACKET = 17;
    static final int SOCK_RAW = 3;
    static final int SOL_SOCKET = 1;
    static final int SO_ERROR = 4;
    static final int SO_ATTACH_FILTER = 26;
    static final int SOL_PACKET = 263;
    static final int PACKET_ADD_MEMBERSHIP = 1;
    static final int PACKET_RX_RING = 5;
    static final int PACKET_STATISTICS = 6;
    static final int PACKET_VERSION = 10;
    static final int PACKET_MR_PROMISC = 1;
    static final int TPACKET_V3 = 2;
    static final int ETH_P_ALL = 0x0003;
    static final int PROT_READ = 1;
    static final int PROT_WRITE = 2;
    static final int MAP_SHARED = 1;
    static final short POLLIN = 0x001;
    static final short POLLERR = 0x008;
    static final short POLLHUP = 0x010;
    static final short POLLNVAL = 0x020;
    static final int EFD_NONBLOCK = 04000;
    static final int ENETDOWN = 100;
    static final int EPERM = 1;
    static final int EACCES = 13;
    static final int ENODEV = 19;
    static final int ENXIO = 6;
    static final int EINTR = 4;

    /** libc, through an interface mapping: errors as {@link LastErrorException}. */
    interface LibC extends Library {
        int socket(int domain, int type, int protocol) throws LastErrorException;

        int setsockopt(int fd, int level, int name, Pointer value, int length) throws LastErrorException;

        int getsockopt(int fd, int level, int name, Pointer value, Pointer length) throws LastErrorException;

        int bind(int fd, Pointer address, int length) throws LastErrorException;

        int getsockname(int fd, Pointer address, Pointer length) throws LastErrorException;

        Pointer mmap(Pointer address, long length, int prot, int flags, int fd, long offset)
                throws LastErrorException;

        int munmap(Pointer address, long length) throws LastErrorException;

        int poll(Pointer fds, long count, int timeoutMillis) throws LastErrorException;

        int eventfd(int initval, int flags) throws LastErrorException;

        long write(int fd, Pointer buffer, long count) throws LastErrorException;

        int close(int fd) throws LastErrorException;

        int if_nametoindex(String name);

        String strerror(int errno);
    }

    /** libpcap's compiler: a dead Ethernet handle compiles the filter. */
    interface Pcap extends Library {
        Pointer pcap_open_dead(int linkType, int snaplen);

        int pcap_compile(Pointer pcap, Pointer program, String expression, int optimize, int netmask);

        String pcap_geterr(Pointer pcap);

        void pcap_freecode(Pointer program);

        void pcap_close(Pointer pcap);
    }

    static final LibC LIBC = Native.load("c", LibC.class);

    private static final class PcapHolder {
        static final Pcap PCAP = Native.load(System.getProperty("org.pcap4j.core.pcapLibName", "pcap"), Pcap.class);
    }

    private RingNative() {
    }

    static Pcap pcap() {
        return PcapHolder.PCAP;
    }

    /** Makes sure libpcap can be loaded (the message of the caller names the package to install). */
    static void loadPcap() {
        NativeLibrary.getInstance(System.getProperty("org.pcap4j.core.pcapLibName", "pcap"));
    }
}
