package io.siteflow.agent.pipeline;

import io.siteflow.agent.capture.PacketHandler;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * Decouples a live capture thread from aggregation: {@link #onPacket} copies the packet into a bounded
 * queue and returns at once (never blocks; when the queue is full the packet is dropped and counted in
 * {@link #dropped()}), and a worker thread hands queued packets to the downstream handler. While no
 * packet arrives the worker tells {@code idleClock} the wall-clock time every {@code tickMillis}, so
 * that flow timeouts still fire on an idle interface.
 *
 * <p>A downstream handler that throws ends the worker: {@code onFailure} runs at once on the worker's thread (the
 * capture stops its source with it, so that the run ends with the cause instead of dropping every later packet),
 * packets offered after that are dropped and counted, and {@link #close()} rethrows the failure.
 *
 * <p>The worker polls: when the queue is empty it parks for {@value #PARK_MICROS} µs instead of waiting on the
 * queue, so the capture thread never has to wake it. A blocking wait cost a futex wake-up and a context switch
 * per packet whenever the worker kept up (bench/agent-live.sh measured ~4 µs of CPU per packet with it); the
 * price is up to {@value #PARK_MICROS} µs more latency and ~{@value #PARK_MICROS}-µs wake-ups while idle.
 */
public final class PacketHandoff implements PacketHandler, AutoCloseable {
    private record Item(long ts, int linkType, byte[] bytes, int wireLen) {
    }

    private static final Item END = new Item(0, 0, new byte[0], 0);
    /** How long the worker parks when it finds the queue empty. */
    static final long PARK_MICROS = 1000;

    private final BlockingQueue<Item> queue;
    private final PacketHandler downstream;
    private final LongConsumer idleClock;
    private final long tickMillis;
    private final Runnable onFailure;
    private final AtomicLong dropped = new AtomicLong();
    private final Thread worker;
    private volatile Throwable failure;

    /**
     * @param capacity   packets the queue holds
     * @param downstream runs on the worker thread
     * @param idleClock  receives the wall-clock time in ns when the queue has been empty for a tick
     * @param tickMillis idle tick
     * @param onFailure  runs on the worker thread when {@code downstream} or {@code idleClock} throws (stops the
     *                   source); must not throw
     */
    public PacketHandoff(int capacity, PacketHandler downstream, LongConsumer idleClock, long tickMillis,
                         Runnable onFailure) {
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.downstream = downstream;
        this.idleClock = idleClock;
        this.tickMillis = tickMillis;
        this.onFailure = onFailure;
        this.worker = new Thread(this::drain, "siteflow-flows");
        worker.setDaemon(true);
        worker.start();
    }

    @Override
    public void onPacket(long ts, int linkType, byte[] data, int offset, int capLen, int wireLen) {
        byte[] copy = new byte[capLen];
        System.arraycopy(data, offset, copy, 0, capLen);
        if (!queue.offer(new Item(ts, linkType, copy, wireLen))) {
            dropped.incrementAndGet();
        }
    }

    /** Packets dropped because the worker fell behind (or had failed). */
    public long dropped() {
        return dropped.get();
    }

    private void drain() {
        long tickNanos = TimeUnit.MILLISECONDS.toNanos(tickMillis);
        long idleSince = System.nanoTime();
        try {
            while (true) {
                Item it = queue.poll();
                if (it == END) {
                    return;
                }
                if (it == null) {
                    long now = System.nanoTime();
                    if (now - idleSince >= tickNanos) {
                        idleClock.accept(System.currentTimeMillis() * 1_000_000L);
                        idleSince = now;
                    }
                    LockSupport.parkNanos(PARK_MICROS * 1_000L);
                    continue;
                }
                downstream.onPacket(it.ts(), it.linkType(), it.bytes(), 0, it.bytes().length, it.wireLen());
                if (queue.isEmpty()) {
                    idleSince = System.nanoTime();
                }
            }
        } catch (RuntimeException | Error e) {
            failure = e;
            queue.clear();
            onFailure.run();
        }
    }

    /**
     * Waits until every queued packet went downstream, then stops the worker.
     *
     * @throws IllegalStateException when the downstream handler failed
     */
    @Override
    public void close() {
        try {
            while (worker.isAlive() && !queue.offer(END, 100, TimeUnit.MILLISECONDS)) {
                // the worker is still draining a full queue
            }
            worker.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failure != null) {
            throw new IllegalStateException("flows: " + failure.getMessage(), failure);
        }
    }
}
