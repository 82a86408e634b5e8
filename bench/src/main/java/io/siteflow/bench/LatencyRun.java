package io.siteflow.bench;

import io.siteflow.model.FlowRecord;
import io.siteflow.processor.app.ProcessorRuntime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * The latency part of {@link StreamsBench}: a producer thread offers records at a steady rate (event time =
 * now) while this thread polls the cumulative verdicts every {@code pollMs}; a record's latency is from its
 * {@code send()} to the first poll whose cumulative bytes of its server include it (records of one server are
 * processed in order, so the server's running byte total after the record says when it was counted).
 */
final class LatencyRun {
    /** Offered and measured. */
    record Result(int sent, double sentRate, long p50Ms, long p99Ms, long maxMs) {
    }

    private final String bootstrap;
    private final ProcessorRuntime rt;
    private final long[] base;
    private final int rate;
    private final int seconds;
    private final int pollMs;

    LatencyRun(String bootstrap, ProcessorRuntime rt, long[] base, int rate, int seconds, int pollMs) {
        this.bootstrap = bootstrap;
        this.rt = rt;
        this.base = base.clone();
        this.rate = rate;
        this.seconds = seconds;
        this.pollMs = pollMs;
    }

    Result run() throws InterruptedException {
        int total = rate * seconds;
        long[] sentAt = new long[total];
        int[] server = new int[total];
        long[] runningBytes = new long[total];
        int[] sent = new int[1];
        Thread producer = new Thread(() -> produce(total, sentAt, server, runningBytes, sent), "bench-producer");
        List<long[]> samples = new ArrayList<>(); // {nanoTime, bytes of server 0, 1, 2}
        long start = System.nanoTime();
        producer.start();
        long deadline = start + (seconds + 120L) * 1_000_000_000L;
        long queryNanos = 0;
        while (System.nanoTime() < deadline) {
            long q0 = System.nanoTime();
            long[] now = StreamsBench.crossBytes(rt);
            long t = System.nanoTime();
            queryNanos += t - q0;
            long[] sample = new long[base.length + 1];
            sample[0] = t;
            for (int i = 0; i < base.length; i++) {
                sample[i + 1] = now[i] - base[i];
            }
            samples.add(sample);
            if (!producer.isAlive() && Arrays.equals(Arrays.copyOfRange(sample, 1, sample.length), target(runningBytes,
                    server, sent[0]))) {
                break;
            }
            Thread.sleep(pollMs);
        }
        producer.join();
        System.err.printf(java.util.Locale.ROOT, "streams-bench: latency run: %d verdict queries, %.2f ms each%n",
                samples.size(), queryNanos / 1e6 / samples.size());
        double sentRate = sent[0] / ((sentAt[sent[0] - 1] - sentAt[0]) / 1e9);
        long[] lat = latencies(samples, sentAt, server, runningBytes, sent[0]);
        Arrays.sort(lat);
        return new Result(sent[0], sentRate, ms(lat[lat.length / 2]), ms(lat[(int) (lat.length * 0.99)]),
                ms(lat[lat.length - 1]));
    }

    private void produce(int total, long[] sentAt, int[] server, long[] runningBytes, int[] sent) {
        long[] running = new long[base.length];
        long t0 = System.nanoTime();
        long periodNanos = 1_000_000_000L / rate;
        try (KafkaProducer<byte[], byte[]> p = StreamsBench.producer(bootstrap)) {
            for (int i = 0; i < total; i++) {
                long due = t0 + i * periodNanos;
                long wait = due - System.nanoTime();
                if (wait > 50_000) {
                    LockSupport.parkNanos(wait);
                }
                FlowRecord r = StreamsBench.flow(i, System.currentTimeMillis(), "lat-" + i);
                int s = StreamsBench.serverIndex(r);
                running[s] += r.bytes() + r.rbytes();
                server[i] = s;
                runningBytes[i] = running[s];
                sentAt[i] = System.nanoTime();
                StreamsBench.send(p, r);
                sent[0] = i + 1;
            }
            p.flush();
        }
    }

    /** The final running total of each server. */
    private long[] target(long[] runningBytes, int[] server, int n) {
        long[] out = new long[base.length];
        for (int i = 0; i < n; i++) {
            out[server[i]] = runningBytes[i];
        }
        return out;
    }

    /** For each record: first sample at or after its send whose server total includes it; unreached: +inf. */
    private static long[] latencies(List<long[]> samples, long[] sentAt, int[] server, long[] runningBytes, int n) {
        long[] out = new long[n];
        int[] cursor = new int[3];
        for (int i = 0; i < n; i++) {
            int s = server[i];
            int k = cursor[s];
            while (k < samples.size() && (samples.get(k)[0] < sentAt[i] || samples.get(k)[s + 1] < runningBytes[i])) {
                k++;
            }
            cursor[s] = k;
            out[i] = k < samples.size() ? samples.get(k)[0] - sentAt[i] : Long.MAX_VALUE;
        }
        return out;
    }

    private static long ms(long nanos) {
        return nanos == Long.MAX_VALUE ? -1 : nanos / 1_000_000;
    }
}
