package io.siteflow.agent.capture;

import java.util.List;

/**
 * What any source of the agent counts about its input, for the meters, the heartbeat and the end-of-run summary:
 * a packet source ({@link PacketSource}) and a source of flows alike. Safe from any thread.
 */
public interface SourceCounters {

    /** A name for records and reports: the interface name, the file name, the exporter's address. */
    String name();

    /** Threads that deliver at once, each with its own counters; 1 unless said. */
    default int workers() {
        return 1;
    }

    /** Received and dropped so far (packets; for a source of flows, what it receives); safe from any thread. */
    CaptureStats stats();

    /** {@link #stats()} of each worker, in worker order; they sum to {@link #stats()}. Safe from any thread. */
    default List<CaptureStats> workerStats() {
        return List.of(stats());
    }
}
