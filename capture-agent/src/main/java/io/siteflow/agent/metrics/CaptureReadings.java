package io.siteflow.agent.metrics;

/**
 * What the meters, the heartbeat and the end-of-run summary read from a running capture, every worker's share
 * added up unless a worker is named. Safe from any thread; values may lag the capture by a packet.
 */
public interface CaptureReadings {
    /** The decoders' counters (a copy when several workers add up). */
    DecodeCounters counters();

    /** Workers of the capture, 1 unless it fans out. */
    int workers();

    /** Flows in the flow tables now. */
    long activeFlows();

    /** Flows ever created. */
    long flowsCreated();

    /** Flows exported early because a table was full. */
    long evictions();

    /** Live packets the agent dropped because aggregation fell behind the capture. */
    long agentDrops();

    /** As {@link #agentDrops()}, of worker {@code worker} (0 to {@link #workers()} - 1) only. */
    long agentDrops(int worker);
}
