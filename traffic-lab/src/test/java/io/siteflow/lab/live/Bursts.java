package io.siteflow.lab.live;

import io.siteflow.lab.NetnsLab;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * UDP traffic between namespaces B and A of a {@link NetnsLab}, in bursts from 0.05 s to 0.85 s after each even
 * second from a start (an even second, epoch milliseconds), quiet in between, for {@code seconds} plus one last
 * burst. Three port pairs: B1 → A, a ring block's worth of 1-byte datagrams at each burst's start then 1000-byte
 * ones (about 5 Mb/s over the slot); B2 ↔ A both ways, smaller; B1 (another port) → A for the first 8 s only.
 * Closing stops it and closes the sockets.
 */
final class Bursts implements AutoCloseable {
    /** Enough small datagrams to fill a 256 KiB TPACKET_V3 block of libpcap's at iftop's 256-byte snap length. */
    private static final int BLOCK_FILL = 2500;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final DatagramSocket sinkA1;
    private final DatagramSocket sinkA2;
    private final DatagramSocket b1;
    private final DatagramSocket b2;
    private final DatagramSocket b1Early;
    private final long startMillis;
    private final int seconds;
    private long burstStarted = Long.MIN_VALUE;

    private Bursts(NetnsLab lab, long startMillis, int seconds) throws Exception {
        String b2Address = "10.98." + lab.subnet() + ".2";
        sinkA1 = lab.call(lab.nsA(), () -> new DatagramSocket(new InetSocketAddress(lab.addressA(), 0)));
        sinkA2 = lab.call(lab.nsA(), () -> new DatagramSocket(new InetSocketAddress(lab.addressA(), 0)));
        b1 = lab.call(lab.nsB(), () -> new DatagramSocket(new InetSocketAddress(lab.addressB(), 0)));
        b2 = lab.call(lab.nsB(), () -> new DatagramSocket(new InetSocketAddress(b2Address, 0)));
        b1Early = lab.call(lab.nsB(), () -> new DatagramSocket(new InetSocketAddress(lab.addressB(), 0)));
        this.startMillis = startMillis;
        this.seconds = seconds;
    }

    static Bursts start(NetnsLab lab, long startMillis, int seconds) throws Exception {
        Bursts b = new Bursts(lab, startMillis, seconds);
        b.timer.scheduleAtFixedRate(b::tick, 0, 10, TimeUnit.MILLISECONDS);
        return b;
    }

    private void tick() {
        long t = System.currentTimeMillis() - startMillis;
        long phase = Math.floorMod(t, 2000L);
        if (t < 0 || t > seconds * 1000L + 900 || phase < 50 || phase >= 850) {
            return;
        }
        try {
            long burst = t - phase;
            if (burst != burstStarted) {
                burstStarted = burst;
                send(b1, sinkA1, BLOCK_FILL, 1);
            }
            send(b1, sinkA1, 16, 1000);
            send(b2, sinkA2, 2, 500);
            send(sinkA2, b2, 1, 200);
            if (t < 8000) {
                send(b1Early, sinkA1, 3, 300);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void send(DatagramSocket from, DatagramSocket to, int count, int size) throws java.io.IOException {
        DatagramPacket p = new DatagramPacket(new byte[size], size, to.getLocalSocketAddress());
        for (int i = 0; i < count; i++) {
            from.send(p);
        }
    }

    @Override
    public void close() throws InterruptedException {
        timer.shutdownNow();
        timer.awaitTermination(5, TimeUnit.SECONDS);
        for (DatagramSocket s : new DatagramSocket[] {sinkA1, sinkA2, b1, b2, b1Early}) {
            s.close();
        }
    }
}
