package io.siteflow.lab.live;

import static org.awaitility.Awaitility.await;

import io.siteflow.agent.capture.PacketHandler;
import io.siteflow.agent.capture.PacketSource;
import io.siteflow.agent.capture.live.LiveCapture;
import io.siteflow.agent.capture.live.RingCapture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A live capture ({@link LiveCapture}, {@link RingCapture}) running on its own thread, collecting copies of the
 * packets it delivers. */
final class CaptureRun implements AutoCloseable {
    private final PacketSource capture;
    private final List<CapturedPacket> packets = new ArrayList<>();
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final Thread thread;

    private CaptureRun(PacketSource capture, PacketHandler extra) {
        this.capture = capture;
        PacketHandler collect = new PacketHandler() {
            @Override
            public void onPacket(long ts, int lt, byte[] data, int off, int cap, int wire) {
                extra.onPacket(ts, lt, data, off, cap, wire);
                synchronized (packets) {
                    packets.add(CapturedPacket.copyOf(ts, lt, data, off, cap, wire));
                }
            }

            @Override
            public void onIdle(long wallClockNanos) {
                extra.onIdle(wallClockNanos);
            }
        };
        thread = new Thread(() -> {
            try {
                capture.run(collect);
                done.complete(null);
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        }, "capture-" + capture.name());
        thread.setDaemon(true);
    }

    static CaptureRun start(PacketSource capture) {
        return start(capture, (ts, lt, data, off, cap, wire) -> { });
    }

    /** Starts with {@code extra} called before each packet is collected (it may block or throw), and told idle ticks. */
    static CaptureRun start(PacketSource capture, PacketHandler extra) {
        CaptureRun r = new CaptureRun(capture, extra);
        r.thread.start();
        return r;
    }

    PacketSource capture() {
        return capture;
    }

    Thread thread() {
        return thread;
    }

    CompletableFuture<Void> done() {
        return done;
    }

    List<CapturedPacket> packets() {
        synchronized (packets) {
            return List.copyOf(packets);
        }
    }

    /** Waits until a delivered packet holds {@code marker}. */
    void awaitPacketWith(byte[] marker) {
        await("live capture delivers the marker").atMost(Duration.ofSeconds(20))
                .until(() -> done.isDone() || packets().stream().anyMatch(p -> p.contains(marker)));
    }

    /** Stops the capture and waits up to 5 s for run() to return (rethrowing what it threw). */
    List<CapturedPacket> stop() throws Exception {
        capture.stop();
        done.get(5, TimeUnit.SECONDS);
        return packets();
    }

    @Override
    public void close() {
        capture.close();
    }
}
