package io.siteflow.agent.capture.live;

/**
 * How a live capture reads packets ({@code --capture-api}): {@link #RING} walks the kernel's TPACKET_V3 ring from
 * Java ({@link RingCapture}: no native call per packet, decoded on the capture thread); {@link #LIBPCAP} calls
 * libpcap's {@code pcap_next_ex} per packet ({@link LiveCapture}), kept for the interfaces the ring reader does not
 * take (link types other than Ethernet: the {@code any} device, tunnels) and as the reference the ring is checked
 * against.
 */
public enum LiveReader {
    RING("ring"),
    LIBPCAP("libpcap");

    private final String flag;

    LiveReader(String flag) {
        this.flag = flag;
    }

    /** The word {@code --capture-api} takes. */
    public String flag() {
        return flag;
    }

    /**
     * The reader {@code --capture-api} names.
     *
     * @throws IllegalArgumentException {@code "--capture-api pcap: must be ring or libpcap"}
     */
    public static LiveReader parse(String text) {
        for (LiveReader r : values()) {
            if (r.flag.equals(text)) {
                return r;
            }
        }
        throw new IllegalArgumentException("--capture-api " + text + ": must be ring or libpcap");
    }
}
