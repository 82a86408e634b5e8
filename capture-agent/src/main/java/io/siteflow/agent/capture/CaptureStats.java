package io.siteflow.agent.capture;

/**
 * Capture counters at one moment.
 *
 * @param received         packets handed to the agent
 * @param droppedKernel    packets the kernel dropped because the buffer was full (libpcap ps_drop), 0 for files
 * @param droppedInterface packets the interface or driver dropped (libpcap ps_ifdrop), 0 for files
 */
public record CaptureStats(long received, long droppedKernel, long droppedInterface) {
    public static final CaptureStats NONE = new CaptureStats(0, 0, 0);

    /** The counters of both, added. */
    public CaptureStats plus(CaptureStats o) {
        return new CaptureStats(received + o.received, droppedKernel + o.droppedKernel,
                droppedInterface + o.droppedInterface);
    }
}
