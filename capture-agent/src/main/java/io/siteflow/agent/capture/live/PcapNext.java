package io.siteflow.agent.capture.live;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.lang.reflect.Field;
import org.pcap4j.core.PcapHandle;

/**
 * Reads packets of an open pcap4j handle with {@code pcap_next_ex}, bound by JNA direct mapping
 * ({@link Native#register}): one plain native call per packet, the header and bytes read out of libpcap's ring
 * into a reused array. pcap4j's {@code pcap_dispatch} path calls back into Java through a JNA callback per
 * packet, allocates the packet's array and a {@code java.sql.Timestamp}, and reads two thread-locals: the
 * live benchmark measured ~3.6 µs of capture-thread CPU per packet there (bench/agent-live.sh, docs/BENCHMARKS.md).
 *
 * <p>The handle must have been opened with nanosecond timestamps ({@code pcap_pkthdr.ts.tv_usec} then holds
 * nanoseconds) on a 64-bit Linux ({@code struct timeval} of two longs). One thread only; the caller keeps the
 * handle open while {@link #next} runs.
 */
final class PcapNext {
    /** {@link #next}: a packet is in {@link #data()}. */
    static final int PACKET = 1;
    /** {@link #next}: the ring block timeout passed without a packet. */
    static final int TIMEOUT = 0;
    /** {@link #next}: {@code pcap_breakloop} was called. */
    static final int BROKEN = -2;

    static {
        Native.register(NativeLibrary.getInstance(System.getProperty("org.pcap4j.core.pcapLibName", "pcap")));
    }

    private static native int pcap_next_ex(Pointer pcap, Pointer header, Pointer data);

    private static native String pcap_geterr(Pointer pcap);

    private final Pointer pcap;
    private final Memory out = new Memory(16);
    private final byte[] data;
    private long nanos;
    private int capLen;
    private int wireLen;

    /** @param snaplen the handle's snaplen: no packet is longer */
    PcapNext(PcapHandle handle, int snaplen) {
        this.pcap = pointerOf(handle);
        this.data = new byte[snaplen];
    }

    /** Waits for the next packet: {@link #PACKET}, {@link #TIMEOUT}, {@link #BROKEN} or libpcap's error (< 0). */
    int next() {
        int rc = pcap_next_ex(pcap, out, out.share(8));
        if (rc != PACKET) {
            return rc;
        }
        Pointer header = out.getPointer(0);
        nanos = header.getLong(0) * 1_000_000_000L + header.getLong(8);
        capLen = Math.min(header.getInt(16), data.length);
        wireLen = header.getInt(20);
        out.getPointer(8).read(0, data, 0, capLen);
        return rc;
    }

    /** libpcap's message for the last error. */
    String error() {
        return pcap_geterr(pcap);
    }

    /** The last packet's bytes, {@link #capLen()} of them from offset 0; overwritten by the next call. */
    byte[] data() {
        return data;
    }

    long nanos() {
        return nanos;
    }

    int capLen() {
        return capLen;
    }

    int wireLen() {
        return wireLen;
    }

    /** The {@code pcap_t *} pcap4j keeps in a private field. */
    static Pointer pointerOf(PcapHandle handle) {
        try {
            Field f = PcapHandle.class.getDeclaredField("handle");
            f.setAccessible(true);
            return (Pointer) f.get(handle);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("pcap4j's PcapHandle has no field 'handle' (pcap4j version changed?)", e);
        }
    }
}
