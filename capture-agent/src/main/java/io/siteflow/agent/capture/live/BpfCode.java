package io.siteflow.agent.capture.live;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import io.siteflow.agent.capture.CaptureFailure;

/**
 * A filter expression compiled by libpcap for an Ethernet socket ({@code pcap_open_dead(DLT_EN10MB, snaplen)},
 * {@code pcap_compile} optimised, netmask unknown), as the {@code struct sock_fprog} that {@code SO_ATTACH_FILTER}
 * takes ({@code struct bpf_insn} and {@code struct sock_filter} have one layout). Accepted packets return the
 * snaplen, so the kernel cuts them there; the empty expression compiles to {@code ret #snaplen}.
 *
 * <p>A dead handle compiles {@code vlan} as a test of the tag in the packet data; libpcap's own live handle on a
 * kernel with BPF extensions tests the tag the kernel took out of the data. {@link BpfFilters} keeps both kinds of
 * tagged frame with its first clause (the tag out of the data) and its second (the tag in it), so the two
 * compilations keep the same packets of that filter. One use: {@link #free()} after attaching.
 */
final class BpfCode {
    private static final int PCAP_NETMASK_UNKNOWN = 0xFFFF_FFFF;

    private final Pointer dead;
    private final Memory program = new Memory(16);
    private final Memory fprog = new Memory(16);

    private BpfCode(Pointer dead) {
        this.dead = dead;
    }

    /**
     * @throws CaptureFailure {@code IFACE: bad BPF filter "EXPR": libpcap's message}, or when libpcap cannot be loaded
     */
    static BpfCode compile(String iface, String expression, int snaplen) throws CaptureFailure {
        RingNative.Pcap pcap;
        try {
            pcap = RingNative.pcap();
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            throw new CaptureFailure(iface + ": libpcap cannot be loaded (" + e.getMessage()
                    + "); install it (Debian: apt-get install libpcap0.8)", e);
        }
        BpfCode code = new BpfCode(pcap.pcap_open_dead(RingSocket.LINKTYPE_ETHERNET, snaplen));
        code.program.clear();
        if (pcap.pcap_compile(code.dead, code.program, expression, 1, PCAP_NETMASK_UNKNOWN) != 0) {
            String reason = pcap.pcap_geterr(code.dead);
            pcap.pcap_close(code.dead);
            throw new CaptureFailure(iface + ": bad BPF filter \"" + expression + "\": " + reason);
        }
        code.fprog.clear();
        code.fprog.setShort(0, (short) code.program.getInt(0));
        code.fprog.setPointer(8, code.program.getPointer(8));
        return code;
    }

    /** Instructions in the program. */
    int length() {
        return program.getInt(0);
    }

    /** The {@code struct sock_fprog} (16 bytes) over the compiled instructions; valid until {@link #free()}. */
    Pointer program() {
        return fprog;
    }

    void free() {
        RingNative.Pcap pcap = RingNative.pcap();
        pcap.pcap_freecode(program);
        pcap.pcap_close(dead);
    }
}
