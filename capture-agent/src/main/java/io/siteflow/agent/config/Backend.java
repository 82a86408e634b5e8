package io.siteflow.agent.config;

/**
 * How a live capture ({@code -i}) gets its flows ({@code --backend}): {@code pcap} reads every packet through libpcap
 * and aggregates in the agent; {@code ebpf} attaches a TC program that aggregates flows in a kernel map, which the
 * agent drains (capture-agent/docs/ebpf.md); {@code auto} takes ebpf where the kernel, the capabilities and libbpf
 * allow it, else pcap, and says which and why in the start-up line.
 */
public enum Backend {
    PCAP("pcap"),
    EBPF("ebpf"),
    AUTO("auto");

    private final String flag;

    Backend(String flag) {
        this.flag = flag;
    }

    /** The word {@code --backend} takes. */
    public String flag() {
        return flag;
    }

    /**
     * The backend {@code --backend} names.
     *
     * @throws IllegalArgumentException {@code "--backend xdp: must be pcap, ebpf or auto"}
     */
    public static Backend parse(String text) {
        for (Backend b : values()) {
            if (b.flag.equals(text)) {
                return b;
            }
        }
        throw new IllegalArgumentException("--backend " + text + ": must be pcap, ebpf or auto");
    }
}
