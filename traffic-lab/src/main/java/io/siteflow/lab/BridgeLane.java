package io.siteflow.lab;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapStat;
import org.pcap4j.core.RawPacketListener;

/**
 * One direction of a {@link DelayBridge}: a capture thread queues each incoming frame with its due time
 * (capture time + delay, {@link System#nanoTime()}); a sender thread waits for the head of the FIFO and
 * injects it. The delay is the same for every frame, so FIFO order is due-time order and frames never
 * overtake each other. Thread-safe: start/stop/join/stats from any thread.
 */
final class BridgeLane {
    private record Held(long dueNanos, byte[] frame) {
    }

    /** The last stretch before a due time is spun, not parked: parking overshoots by tens of microseconds. */
    private static final long SPIN_NANOS = 100_000;

    private final String name;
    private final PcapHandle in;
    private final PcapHandle out;
    private final long delayNanos;
    private final LinkedBlockingQueue<Held> queue = new LinkedBlockingQueue<>();
    private final AtomicLong forwarded = new AtomicLong();
    private final AtomicLong sendErrors = new AtomicLong();
    private final AtomicLong lateSum = new AtomicLong();
    private final AtomicLong lateMax = new AtomicLong();
    private final AtomicLong lateOver1ms = new AtomicLong();
    private volatile long droppedKernel;
    private Thread capture;
    private Thread sender;

    BridgeLane(String name, PcapHandle in, PcapHandle out, long delayNanos) {
        this.name = name;
        this.in = in;
        this.out = out;
        this.delayNanos = delayNanos;
    }

    synchronized void start() {
        capture = new Thread(this::capture, "bridge-capture-" + name);
        sender = new Thread(this::send, "bridge-send-" + name);
        for (Thread t : new Thread[] {capture, sender}) {
            t.setDaemon(true);
            t.setPriority(Thread.MAX_PRIORITY);
            t.start();
        }
    }

    private void capture() {
        try {
            in.loop(-1, (RawPacketListener) frame -> queue.add(new Held(dueNanos(), frame)));
        } catch (InterruptedException | NotOpenException e) {
            // breakLoop or close: stopping
        } catch (PcapNativeException e) {
            System.err.println("bridge " + name + ": capture failed: " + e.getMessage());
        } finally {
            readDrops();
        }
    }

    /**
     * The due time of the frame being delivered: its kernel capture time plus the delay, on the
     * {@link System#nanoTime()} clock, so the time the frame waited in the ring and in the callback counts.
     */
    private long dueNanos() {
        long now = System.nanoTime();
        Timestamp ts = in.getTimestamp();
        if (ts == null) {
            return now + delayNanos;
        }
        Instant wall = Instant.now();
        long waited = (wall.getEpochSecond() - ts.getTime() / 1000) * 1_000_000_000L
                + wall.getNano() - ts.getNanos();
        return now + delayNanos - Math.max(0, Math.min(waited, delayNanos));
    }

    private void send() {
        try {
            while (true) {
                Held h = queue.take();
                long left;
                while ((left = h.dueNanos - System.nanoTime()) > SPIN_NANOS) {
                    LockSupport.parkNanos(left - SPIN_NANOS);
                    if (Thread.interrupted()) {
                        return;
                    }
                }
                while (h.dueNanos - System.nanoTime() > 0) {
                    Thread.onSpinWait();
                }
                inject(h);
            }
        } catch (InterruptedException e) {
            // stop()
        }
    }

    private void inject(Held h) {
        try {
            out.sendPacket(h.frame);
            long late = System.nanoTime() - h.dueNanos;
            lateSum.addAndGet(late);
            lateMax.accumulateAndGet(late, Math::max);
            if (late > 1_000_000) {
                lateOver1ms.incrementAndGet();
            }
            forwarded.incrementAndGet();
        } catch (PcapNativeException | NotOpenException e) {
            sendErrors.incrementAndGet();
        }
    }

    private void readDrops() {
        try {
            PcapStat s = in.getStats();
            droppedKernel = s.getNumPacketsDropped();
        } catch (PcapNativeException | NotOpenException e) {
            // keep the last value
        }
    }

    synchronized void stop() {
        if (capture == null) {
            return;
        }
        try {
            in.breakLoop();
        } catch (NotOpenException e) {
            // closed already
        }
        sender.interrupt();
    }

    synchronized void join() {
        if (capture == null) {
            return;
        }
        try {
            capture.join(5_000);
            sender.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    BridgeStats stats() {
        long n = forwarded.get();
        return new BridgeStats(name, n, sendErrors.get(), droppedKernel, lateMax.get(), n == 0 ? 0 : lateSum.get() / n,
                lateOver1ms.get());
    }
}
