package io.siteflow.agent.capture.live;

import io.siteflow.agent.capture.CaptureException;
import io.siteflow.agent.capture.CaptureFailure;
import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.capture.PacketHandler;
import io.siteflow.agent.capture.PacketSource;
import java.util.ArrayList;
import java.util.List;

/**
 * Live capture by several workers on one interface: N {@link RingCapture}s (or N {@link LiveCapture}s, each its own
 * libpcap handle), each with its own kernel ring, joined into one {@code PACKET_FANOUT} hash group ({@link PacketFanout}), so the kernel spreads
 * the interface's packets over them by flow and both directions of a connection reach the same worker.
 *
 * <p>{@link #run(List)} runs worker 0 on the caller's thread and every other worker on a thread of its own
 * ({@code siteflow-capture-N}), each delivering to its own handler, and returns when all have returned; a worker
 * that fails stops the others, and the first failure is rethrown. {@link #stats()} is the sum of the workers'
 * counters, {@link #workerStats()} each one's. Threads: as {@link LiveCapture}.
 */
public final class FanoutCapture implements PacketSource {
    private final String iface;
    private final List<FanoutMember> workers;

    private FanoutCapture(String iface, List<FanoutMember> workers) {
        this.iface = iface;
        this.workers = List.copyOf(workers);
    }

    /**
     * Opens {@code count} captures with the builder's settings (each with its own ring of the builder's buffer
     * size) and joins them into a new fan-out group.
     *
     * @throws CaptureFailure as {@link LiveCapture.Builder#build()}, or when the kernel refuses the fan-out group
     *                        ({@code eth0: cannot join a PACKET_FANOUT group (...): reason}); nothing stays open
     */
    public static FanoutCapture open(String iface, LiveCapture.Builder builder, int count) throws CaptureFailure {
        return open(iface, builder, count, LiveReader.LIBPCAP);
    }

    /** As {@link #open(String, LiveCapture.Builder, int)}, each worker reading with {@code reader}. */
    public static FanoutCapture open(String iface, LiveCapture.Builder builder, int count, LiveReader reader)
            throws CaptureFailure {
        if (count < 2) {
            throw new IllegalArgumentException("a fan-out group needs at least 2 workers, not " + count);
        }
        List<FanoutMember> opened = new ArrayList<>(count);
        try {
            int group = 0;
            for (int i = 0; i < count; i++) {
                FanoutMember c = reader == LiveReader.RING ? builder.buildRing() : builder.build();
                opened.add(c);
                if (i == 0) {
                    group = PacketFanout.create(iface, c.socket());
                } else {
                    PacketFanout.join(iface, c.socket(), group);
                }
            }
        } catch (CaptureFailure | RuntimeException e) {
            opened.forEach(FanoutMember::close);
            throw e;
        }
        return new FanoutCapture(iface, opened);
    }

    @Override
    public int workers() {
        return workers.size();
    }

    /** Every worker delivers to {@code handler}, which must then be thread-safe. */
    @Override
    public void run(PacketHandler handler) throws CaptureException {
        run(workers.stream().map(w -> handler).toList());
    }

    @Override
    public void run(List<? extends PacketHandler> handlers) throws CaptureException {
        if (handlers.size() != workers.size()) {
            throw new IllegalArgumentException(handlers.size() + " handlers for " + workers.size() + " workers");
        }
        Throwable[] failures = new Throwable[workers.size()];
        List<Thread> threads = new ArrayList<>();
        for (int i = 1; i < workers.size(); i++) {
            int w = i;
            Thread t = new Thread(() -> failures[w] = runWorker(w, handlers.get(w)), "siteflow-capture-" + w);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
        failures[0] = runWorker(0, handlers.get(0));
        boolean interrupted = false;
        for (Thread t : threads) {
            while (t.isAlive()) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        rethrowFirst(failures);
    }

    private Throwable runWorker(int w, PacketHandler handler) {
        try {
            workers.get(w).run(handler);
            return null;
        } catch (CaptureFailure | RuntimeException | Error e) {
            stop();
            return e;
        }
    }

    private static void rethrowFirst(Throwable[] failures) throws CaptureFailure {
        for (Throwable f : failures) {
            if (f instanceof CaptureFailure c) {
                throw c;
            }
            if (f instanceof RuntimeException r) {
                throw r;
            }
            if (f instanceof Error e) {
                throw e;
            }
        }
    }

    /** As each worker's: true for rings read from Java. */
    @Override
    public boolean buffersPackets() {
        return workers.get(0).buffersPackets();
    }

    @Override
    public void stop() {
        workers.forEach(FanoutMember::stop);
    }

    @Override
    public CaptureStats stats() {
        CaptureStats sum = CaptureStats.NONE;
        for (FanoutMember w : workers) {
            sum = sum.plus(w.stats());
        }
        return sum;
    }

    @Override
    public List<CaptureStats> workerStats() {
        return workers.stream().map(FanoutMember::stats).toList();
    }

    @Override
    public String name() {
        return iface;
    }

    @Override
    public void close() {
        workers.forEach(FanoutMember::close);
    }
}
