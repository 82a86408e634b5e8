package io.siteflow.agent.ebpf;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Whether the program can read an interface: it parses Ethernet frames, so the interface must carry them
 * ({@code ARPHRD_ETHER}, or {@code ARPHRD_LOOPBACK}, whose frames have an Ethernet header too). A tunnel or
 * WireGuard device ({@code ARPHRD_NONE}) hands the TC hook bare IP packets the program would silently not count.
 * The type is read with {@code SIOCGIFHWADDR} in the calling thread's network namespace (not from /sys, which
 * shows the namespace it was mounted in), through libc alone: {@code --backend auto} asks before libbpf is loaded.
 * Static; thread-safe.
 */
final class LinkCheck {
    /** The libc calls the check makes. */
    interface LibC extends Library {
        int close(int fd);

        int if_nametoindex(String name);

        int ioctl(int fd, long request, Pointer argument);

        int socket(int domain, int type, int protocol);
    }

    /** Lazy holder of libc. */
    private static final class Holder {
        static final LibC LIBC = Native.load("c", LibC.class);
    }

    private static final int AF_INET = 2;
    private static final int SOCK_DGRAM = 2;
    private static final long SIOCGIFHWADDR = 0x8927;
    private static final int IFNAMSIZ = 16;
    private static final int IFREQ_SIZE = 40;
    private static final int ARPHRD_ETHER = 1;
    private static final int ARPHRD_LOOPBACK = 772;

    private LinkCheck() {
    }

    /**
     * Empty when the program can read {@code iface}, else why not, e.g. {@code "tun0 is not an Ethernet interface
     * (ARPHRD type 65534)"} or {@code "eth9: no such interface"}.
     */
    static Optional<String> problem(String iface) {
        if ("any".equals(iface)) {
            return Optional.of("the any device is no interface a TC program attaches to");
        }
        byte[] name = iface.getBytes(StandardCharsets.UTF_8);
        if (name.length >= IFNAMSIZ || Holder.LIBC.if_nametoindex(iface) == 0) {
            return Optional.of(iface + ": no such interface");
        }
        int type = hardwareType(name);
        if (type < 0 || type == ARPHRD_ETHER || type == ARPHRD_LOOPBACK) {
            return Optional.empty(); // unknown: let the attach itself say what is wrong
        }
        return Optional.of(iface + " is not an Ethernet interface (ARPHRD type " + type
                + "): the program reads Ethernet frames");
    }

    /** The interface's ARPHRD type, or -1 when it cannot be read. */
    private static int hardwareType(byte[] name) {
        LibC libc = Holder.LIBC;
        int fd = libc.socket(AF_INET, SOCK_DGRAM, 0);
        if (fd < 0) {
            return -1;
        }
        try {
            Memory ifreq = new Memory(IFREQ_SIZE);
            ifreq.clear();
            ifreq.write(0, name, 0, name.length);
            if (libc.ioctl(fd, SIOCGIFHWADDR, ifreq) < 0) {
                return -1;
            }
            return ifreq.getShort(IFNAMSIZ) & 0xFFFF; // ifr_hwaddr.sa_family
        } finally {
            libc.close(fd);
        }
    }
}
