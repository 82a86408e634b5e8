package io.siteflow.bench;

import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.capture.PacketHandler;
import io.siteflow.agent.capture.file.CaptureFileReader;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;

/**
 * Reads a capture file with {@link CaptureFileReader} and prints packets, bytes and packets/s: the
 * reader alone, without decoding. Usage: {@code ReaderThroughput FILE [ROUNDS]} (default 5 rounds; the
 * first ones warm the JIT and the page cache). Compare with {@code tcpdump -r FILE -w /dev/null}. On a
 * shared machine compare CPU time (this thread's; tcpdump's user + system time), not wall time.
 */
public final class ReaderThroughput {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ReaderThroughput() {
    }

    /** Counts packets and sums lengths, touching one byte per packet so the data is really read. */
    private static final class Counter implements PacketHandler {
        long packets;
        long wireBytes;
        long capturedBytes;
        long checksum;

        @Override
        public void onPacket(long ts, int linkType, byte[] data, int offset, int capturedLength, int wireLength) {
            packets++;
            wireBytes += wireLength;
            capturedBytes += capturedLength;
            checksum += capturedLength > 0 ? data[offset] : 0;
        }
    }

    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: ReaderThroughput FILE [ROUNDS]");
            System.exit(64);
        }
        Path file = Path.of(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        for (int round = 1; round <= rounds; round++) {
            Counter counter = new Counter();
            long start = System.nanoTime();
            long cpuStart = THREADS.getCurrentThreadCpuTime();
            String error = "";
            try (CaptureFileReader reader = CaptureFileReader.open(file)) {
                reader.run(counter);
            } catch (CaptureFileException e) {
                error = "  error: " + e.getMessage();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpuSeconds = (THREADS.getCurrentThreadCpuTime() - cpuStart) / 1e9;
            System.out.printf("round %d: %d packets, %d wire bytes, %d captured bytes in %.3f s (%.3f s CPU):"
                            + " %.2f M packets/s, %.2f M packets per CPU second (checksum %d)%s%n",
                    round, counter.packets, counter.wireBytes, counter.capturedBytes, seconds, cpuSeconds,
                    counter.packets / seconds / 1e6, counter.packets / cpuSeconds / 1e6, counter.checksum, error);
        }
    }
}
