package io.siteflow.lab;

import io.siteflow.synth.TrafficCategory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface.PromiscuousMode;
import org.pcap4j.core.RawPacketListener;

/**
 * The lab's ground truth: counts every IPv4 frame on one interface of the router (both directions, pcap4j
 * in immediate mode, its own few lines of Ethernet/IPv4/TCP/UDP parsing, independent of the agent's
 * decoder) per conversation, oriented from the region-2 end. Bytes are the IP total length. Live totals per
 * region-2 host steer the byte mix while traffic runs; {@link #snapshot} gives the conversations.
 * Thread-safe.
 */
final class WireCounter implements AutoCloseable {
    private record Key(int proto, String client, int clientPort, String server, int serverPort) {
    }

    private final PcapHandle handle;
    private final Thread thread;
    private final Map<Key, long[]> conversations = new HashMap<>();
    private final Map<String, long[]> hosts = new HashMap<>();
    private long packets;
    private long ipBytes;
    private long otherFrames;
    private volatile long lastFrameNanos = System.nanoTime();
    private volatile long droppedKernel;

    private WireCounter(PcapHandle handle) {
        this.handle = handle;
        this.thread = new Thread(this::loop, "lab-wire-counter");
        thread.setDaemon(true);
    }

    /** Starts counting on {@code iface} inside namespace {@code ns}. */
    static WireCounter start(String ns, String iface) throws Exception {
        PcapHandle h = Netns.call(ns, () -> new PcapHandle.Builder(iface).snaplen(128).bufferSize(32 << 20)
                .promiscuousMode(PromiscuousMode.PROMISCUOUS).immediateMode(true).timeoutMillis(1).build());
        WireCounter c = new WireCounter(h);
        c.thread.start();
        return c;
    }

    private void loop() {
        try {
            handle.loop(-1, (RawPacketListener) this::count);
        } catch (InterruptedException | NotOpenException e) {
            // stopping
        } catch (PcapNativeException e) {
            System.err.println("lab counter: capture failed: " + e.getMessage());
        }
    }

    private synchronized void count(byte[] f) {
        lastFrameNanos = System.nanoTime();
        if (f.length < 34 || f[12] != 0x08 || f[13] != 0x00 || (f[14] & 0xF0) != 0x40) {
            otherFrames++;
            return;
        }
        int ihl = (f[14] & 0x0F) * 4;
        int length = u16(f, 16);
        int proto = f[23] & 0xFF;
        String src = ip(f, 26);
        String dst = ip(f, 30);
        boolean ports = (proto == 6 || proto == 17) && (u16(f, 20) & 0x1FFF) == 0 && f.length >= 14 + ihl + 4;
        int sport = ports ? u16(f, 14 + ihl) : 0;
        int dport = ports ? u16(f, 16 + ihl) : 0;
        boolean fromClient = src.startsWith("10.2.");
        Key k = fromClient ? new Key(proto, src, sport, dst, dport) : new Key(proto, dst, dport, src, sport);
        long[] c = conversations.computeIfAbsent(k, x -> new long[4]);
        c[fromClient ? 0 : 2] += length;
        c[fromClient ? 1 : 3]++;
        long[] h = hosts.computeIfAbsent(k.client, x -> new long[2]);
        h[0] += length;
        if (LabService.categoryOf(k.serverPort) == TrafficCategory.DB) {
            h[1] += length;
        }
        packets++;
        ipBytes += length;
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) << 8 | b[at + 1] & 0xFF;
    }

    private static String ip(byte[] b, int at) {
        return (b[at] & 0xFF) + "." + (b[at + 1] & 0xFF) + "." + (b[at + 2] & 0xFF) + "." + (b[at + 3] & 0xFF);
    }

    /** IP bytes of all of {@code host}'s conversations through the router so far. */
    synchronized long crossBytes(String host) {
        long[] h = hosts.get(host);
        return h == null ? 0 : h[0];
    }

    /** The DB part of {@link #crossBytes}. */
    synchronized long dbBytes(String host) {
        long[] h = hosts.get(host);
        return h == null ? 0 : h[1];
    }

    /** Nanoseconds ({@link System#nanoTime()}) since the last frame. */
    long quietNanos() {
        return System.nanoTime() - lastFrameNanos;
    }

    /** Every conversation so far, sorted by client, client port, server, server port, protocol. */
    synchronized List<ConversationTruth> snapshot() {
        List<ConversationTruth> list = new ArrayList<>();
        conversations.forEach((k, c) -> list.add(new ConversationTruth(k.proto, k.client, k.clientPort, k.server,
                k.serverPort, LabService.categoryOf(k.serverPort), c[0], c[1], c[2], c[3])));
        list.sort(ConversationOrder.INSTANCE);
        return list;
    }

    synchronized long packets() {
        return packets;
    }

    synchronized long ipBytes() {
        return ipBytes;
    }

    /** Frames that were not IPv4 (none are expected: the lab sends no ARP and has IPv6 off). */
    synchronized long otherFrames() {
        return otherFrames;
    }

    /** Frames the counter's ring dropped (final after {@link #close()}). */
    long droppedKernel() {
        return droppedKernel;
    }

    @Override
    public void close() {
        try {
            handle.breakLoop();
            thread.join(5_000);
            droppedKernel = handle.getStats().getNumPacketsDropped();
        } catch (PcapNativeException | NotOpenException e) {
            // closed already
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (handle.isOpen()) {
            handle.close();
        }
    }
}
