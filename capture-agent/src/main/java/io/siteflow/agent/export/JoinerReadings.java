package io.siteflow.agent.export;

import io.siteflow.agent.metrics.CaptureReadings;
import io.siteflow.agent.metrics.DecodeCounters;
import java.util.function.Supplier;

/**
 * What the agent's meters, heartbeat and summary read from the collector: no packet decode counters (a collector
 * decodes no packets), the joiner's conversations as flows, no drops by the agent. Safe from any thread.
 */
final class JoinerReadings implements CaptureReadings {
    private final DecodeCounters noPackets = new DecodeCounters();
    private final Supplier<BiflowJoiner> joiner;

    /** @param joiner the joiner of the run, null before the run starts */
    JoinerReadings(Supplier<BiflowJoiner> joiner) {
        this.joiner = joiner;
    }

    @Override
    public DecodeCounters counters() {
        return noPackets;
    }

    @Override
    public int workers() {
        return 1;
    }

    @Override
    public long activeFlows() {
        BiflowJoiner j = joiner.get();
        return j == null ? 0 : j.held();
    }

    @Override
    public long flowsCreated() {
        BiflowJoiner j = joiner.get();
        return j == null ? 0 : j.created();
    }

    @Override
    public long evictions() {
        BiflowJoiner j = joiner.get();
        return j == null ? 0 : j.evictions();
    }

    @Override
    public long agentDrops() {
        return 0;
    }

    @Override
    public long agentDrops(int worker) {
        return 0;
    }
}
