package io.siteflow.agent.capture.live;

import io.siteflow.agent.capture.PacketHandler;
import java.sql.Timestamp;
import java.util.concurrent.atomic.AtomicLong;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.RawPacketListener;

/**
 * Adapts pcap4j's raw callback to a {@link PacketHandler}. pcap4j keeps the packet's timestamp and original
 * length in thread-locals of the handle, set just before {@code gotPacket} on the dispatching thread, and
 * hands over a fresh array of the captured bytes. Exceptions must not escape: pcap4j would log and swallow
 * them, so the first one is kept, {@code onFailure} is called (it breaks the loop), and later packets of
 * the same dispatch are skipped. Used by one thread.
 */
final class DispatchListener implements RawPacketListener {
    private final PcapHandle handle;
    private final int linkType;
    private final PacketHandler handler;
    private final AtomicLong delivered;
    private final Runnable onFailure;
    private Throwable failure;
    private long count;

    DispatchListener(PcapHandle handle, int linkType, PacketHandler handler, AtomicLong delivered, Runnable onFailure) {
        this.handle = handle;
        this.linkType = linkType;
        this.handler = handler;
        this.delivered = delivered;
        this.onFailure = onFailure;
        this.count = delivered.get();
    }

    @Override
    public void gotPacket(byte[] packet) {
        if (failure != null) {
            return;
        }
        try {
            Timestamp ts = handle.getTimestamp();
            long nanos = Math.floorDiv(ts.getTime(), 1000L) * 1_000_000_000L + ts.getNanos();
            int wireLength = handle.getOriginalLength();
            delivered.lazySet(++count);
            handler.onPacket(nanos, linkType, packet, 0, packet.length, wireLength);
        } catch (RuntimeException | Error e) {
            failure = e;
            onFailure.run();
        }
    }

    /** The first exception the handler threw, or null. */
    Throwable failure() {
        return failure;
    }
}
