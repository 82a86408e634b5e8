package io.siteflow.bench.soak;

import java.util.Arrays;

/**
 * When each record of every server was sent and its server's running byte total after it: records of one server
 * are counted in order (one partition, one producer), so the first verdict whose {@code crossBytes} reaches a
 * record's running total has counted it. The sender appends, the verdict reader takes; entries live only while
 * their record is in flight. Thread-safe (one lock per server).
 */
final class SentLog {
    private final Queue[] queues;

    SentLog(int servers) {
        queues = new Queue[servers];
        for (int i = 0; i < servers; i++) {
            queues[i] = new Queue();
        }
    }

    /** Server {@code s}'s next record, sent at {@code nanos}, brings its total to {@code runningBytes}. */
    void sent(int s, long nanos, long runningBytes) {
        Queue q = queues[s];
        synchronized (q) {
            q.add(nanos, runningBytes);
        }
    }

    /**
     * Server {@code s}'s verdict, read at {@code nanos}, holds {@code crossBytes}: every record it counts leaves the
     * log and its lag ({@code nanos} minus its send) goes into {@code lags}.
     *
     * @return how many records this reading counted for the first time
     */
    int counted(int s, long crossBytes, long nanos, LagStats... lags) {
        Queue q = queues[s];
        synchronized (q) {
            int n = 0;
            while (q.head < q.size && q.running[q.head] <= crossBytes) {
                long ms = (nanos - q.sent[q.head]) / 1_000_000;
                for (LagStats l : lags) {
                    l.add(ms);
                }
                q.head++;
                n++;
            }
            return n;
        }
    }

    /** Records sent and not yet counted, all servers. */
    long inFlight() {
        long n = 0;
        for (Queue q : queues) {
            synchronized (q) {
                n += q.size - q.head;
            }
        }
        return n;
    }

    /** Two growing arrays with a read position; compacted when the read part is the larger half. */
    private static final class Queue {
        long[] sent = new long[64];
        long[] running = new long[64];
        int head;
        int size;

        void add(long nanos, long runningBytes) {
            if (size == sent.length) {
                if (head > size / 2) {
                    System.arraycopy(sent, head, sent, 0, size - head);
                    System.arraycopy(running, head, running, 0, size - head);
                    size -= head;
                    head = 0;
                } else {
                    sent = Arrays.copyOf(sent, size * 2);
                    running = Arrays.copyOf(running, size * 2);
                }
            }
            sent[size] = nanos;
            running[size] = runningBytes;
            size++;
        }
    }
}
