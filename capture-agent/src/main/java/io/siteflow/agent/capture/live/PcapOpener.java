package io.siteflow.agent.capture.live;

import io.siteflow.agent.capture.CaptureFailure;
import org.pcap4j.core.BpfProgram.BpfCompileMode;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapHandle.TimestampPrecision;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface.PromiscuousMode;

/** Opens a pcap4j handle from validated settings, turning libpcap's failures into {@link CaptureFailure}s. */
final class PcapOpener {
    private PcapOpener() {
    }

    static PcapHandle open(LiveCaptureSettings s) throws CaptureFailure {
        PcapHandle handle = activate(s);
        if (!s.bpfFilter().isEmpty()) {
            try {
                handle.setFilter(s.bpfFilter(), BpfCompileMode.OPTIMIZE);
            } catch (PcapNativeException e) {
                handle.close();
                throw OpenErrors.badFilter(s.iface(), s.bpfFilter(), e);
            } catch (NotOpenException e) {
                throw new AssertionError("handle closed while opening", e);
            }
        }
        return handle;
    }

    private static PcapHandle activate(LiveCaptureSettings s) throws CaptureFailure {
        try {
            return new PcapHandle.Builder(s.iface())
                    .snaplen(s.snaplen())
                    .bufferSize(s.bufferBytes())
                    .timeoutMillis(s.timeoutMillis())
                    .promiscuousMode(s.promiscuous() ? PromiscuousMode.PROMISCUOUS : PromiscuousMode.NONPROMISCUOUS)
                    .timestampPrecision(TimestampPrecision.NANO)
                    .build();
        } catch (PcapNativeException e) {
            throw OpenErrors.forActivate(s.iface(), e);
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            throw new CaptureFailure(s.iface() + ": libpcap cannot be loaded (" + e.getMessage()
                    + "); install it (Debian: apt-get install libpcap0.8)", e);
        }
    }
}
