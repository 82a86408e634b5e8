package io.siteflow.agent.capture.file;

import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.capture.PacketHandler;
import io.siteflow.agent.capture.PacketSource;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Replays a capture file at the pace it was captured, as if it were live: packet times are moved so that
 * the file starts now, and each packet is handed over when its (moved) time comes. After its last packet the
 * file starts over (one second later) for the number of passes asked, or forever (0), until {@link #stop()}.
 * Every pass hands over the same packets, so connections come back on the same 5-tuples with the same sequence
 * numbers, one pass later. For demos and pipeline tests that need a steady stream of current traffic. {@link #run}
 * on one thread; the rest from any.
 */
public final class PacedReplay implements PacketSource {
    private static final long MIN_SLEEP_NANOS = 1_000_000L;
    private static final long LOOP_GAP_NANOS = 1_000_000_000L;

    private final Path file;
    private final int passes;
    private final LongSupplier clock;
    private final AtomicLong delivered = new AtomicLong();
    private volatile boolean stopped;
    private volatile CaptureFileReader current;

    /**
     * @param file  the capture
     * @param passes passes over the file: 1 reads it once, 0 starts over at the end until stopped
     * @param clock  wall clock in ns since the epoch
     */
    public PacedReplay(Path file, int passes, LongSupplier clock) {
        if (passes < 0) {
            throw new IllegalArgumentException("passes must not be negative: " + passes);
        }
        this.file = file;
        this.passes = passes;
        this.clock = clock;
    }

    /** Checks that the file opens, so that a bad file fails before the replay starts. */
    public static PacedReplay open(Path file, int passes) throws CaptureFileException {
        CaptureFileReader.open(file).close();
        return new PacedReplay(file, passes, () -> System.currentTimeMillis() * 1_000_000L);
    }

    @Override
    public void run(PacketHandler handler) throws CaptureFileException {
        long[] shift = {Long.MIN_VALUE};
        long[] last = {0};
        int done = 0;
        do {
            try (CaptureFileReader reader = CaptureFileReader.open(file)) {
                current = reader;
                if (stopped) {
                    return;
                }
                reader.run((ts, linkType, data, offset, capLen, wireLen) -> {
                    if (shift[0] == Long.MIN_VALUE) {
                        shift[0] = clock.getAsLong() - ts;
                    }
                    long at = Math.max(ts + shift[0], last[0]);
                    waitUntil(at);
                    last[0] = at;
                    delivered.incrementAndGet();
                    handler.onPacket(at, linkType, data, offset, capLen, wireLen);
                });
            }
            done++;
            // the next round starts a second after this one's last packet
            shift[0] = Long.MIN_VALUE;
            long next = last[0] + LOOP_GAP_NANOS;
            waitUntil(next);
        } while ((passes == 0 || done < passes) && !stopped);
    }

    private void waitUntil(long atNanos) {
        while (!stopped) {
            long ahead = atNanos - clock.getAsLong();
            if (ahead < MIN_SLEEP_NANOS) {
                return;
            }
            LockSupport.parkNanos(Math.min(ahead, 100_000_000L));
        }
    }

    @Override
    public void stop() {
        stopped = true;
        CaptureFileReader r = current;
        if (r != null) {
            r.stop();
        }
    }

    @Override
    public CaptureStats stats() {
        return new CaptureStats(delivered.get(), 0, 0);
    }

    @Override
    public String name() {
        Path n = file.getFileName();
        return n == null ? file.toString() : n.toString();
    }

    @Override
    public void close() {
        stop();
    }
}
