package io.siteflow.agent.capture.live;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import io.siteflow.agent.capture.CaptureFailure;
import org.pcap4j.core.PcapHandle;

/**
 * Joins packet sockets (a {@link RingCapture}'s own, or a libpcap handle's) to one Linux {@code PACKET_FANOUT} group in hash mode ({@code PACKET_FANOUT_HASH}): the
 * kernel hashes each packet's flow symmetrically (addresses and ports, in either order), so both directions of a
 * connection reach the same socket. The first handle creates the group with a kernel-assigned id
 * ({@code PACKET_FANOUT_FLAG_UNIQUEID}, Linux 4.3+), so two agents on one host never share a group; the others
 * join it by that id.
 *
 * <p>libpcap has no fan-out call: the socket comes from {@code pcap_fileno} and the option is set with
 * {@code setsockopt(2)}, both through JNA. pcap4j keeps the {@code pcap_t} pointer in a private field, read once
 * by reflection. Packets a socket received before it joined stay in its own ring.
 */
final class PacketFanout {
    static final int SOL_PACKET = 263;
    static final int PACKET_FANOUT = 18;
    static final int PACKET_FANOUT_HASH = 0;
    static final int PACKET_FANOUT_FLAG_UNIQUEID = 0x2000;

    private interface LibC extends Library {
        int setsockopt(int fd, int level, int name, IntByReference value, int length) throws LastErrorException;

        int getsockopt(int fd, int level, int name, IntByReference value, IntByReference length)
                throws LastErrorException;
    }

    private static final class Holder {
        static final LibC LIBC = Native.load("c", LibC.class);
    }

    private PacketFanout() {
    }

    /** Creates a new hash group with the socket {@code fd} in it; returns the group id the kernel chose. */
    static int create(String iface, int fd) throws CaptureFailure {
        set(iface, fd, (PACKET_FANOUT_HASH | PACKET_FANOUT_FLAG_UNIQUEID) << 16);
        IntByReference value = new IntByReference();
        IntByReference length = new IntByReference(4);
        try {
            Holder.LIBC.getsockopt(fd, SOL_PACKET, PACKET_FANOUT, value, length);
        } catch (LastErrorException e) {
            throw new CaptureFailure(iface + ": cannot read the PACKET_FANOUT group id: " + e.getMessage(), e);
        }
        return value.getValue() & 0xFFFF;
    }

    /** Adds the socket {@code fd} to the hash group {@code group} made by {@link #create}. */
    static void join(String iface, int fd, int group) throws CaptureFailure {
        set(iface, fd, group | PACKET_FANOUT_HASH << 16);
    }

    private static void set(String iface, int fd, int value) throws CaptureFailure {
        try {
            Holder.LIBC.setsockopt(fd, SOL_PACKET, PACKET_FANOUT, new IntByReference(value), 4);
        } catch (LastErrorException e) {
            throw new CaptureFailure(iface + ": cannot join a PACKET_FANOUT group (--workers needs Linux 4.3 or "
                    + "later and an AF_PACKET capture): " + e.getMessage(), e);
        }
    }

    /** The capture socket of a live handle ({@code pcap_fileno}). */
    static int fileno(String iface, PcapHandle handle) throws CaptureFailure {
        try {
            Pointer pcap = PcapNext.pointerOf(handle);
            NativeLibrary lib = NativeLibrary.getInstance(System.getProperty("org.pcap4j.core.pcapLibName", "pcap"));
            int fd = lib.getFunction("pcap_fileno").invokeInt(new Object[] {pcap});
            if (fd < 0) {
                throw new CaptureFailure(iface + ": libpcap gave no socket for this capture (pcap_fileno " + fd + ")");
            }
            return fd;
        } catch (RuntimeException e) {
            throw new CaptureFailure(iface + ": cannot reach pcap4j's capture handle for PACKET_FANOUT: " + e, e);
        }
    }
}
