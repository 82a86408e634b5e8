package io.siteflow.processor.topology;

import io.siteflow.model.wire.Heartbeat;
import io.siteflow.processor.query.AgentStatus;
import java.util.Optional;

/**
 * An agent heartbeat from {@code siteflow.agents} as the processor shows it: read by {@link Heartbeat#parse}
 * (the same class the agent writes it with; unknown fields skipped, missing counters 0), plus whether the agent
 * has gone silent. {@code recordsSent} is read but not shown. Stateless, thread-safe.
 */
public final class HeartbeatJson {
    /** An agent is silent when its last heartbeat is older than this (wall clock). */
    public static final long SILENT_AFTER_MS = 30_000L;

    private HeartbeatJson() {
    }

    /** The status in a heartbeat, empty when the text is no heartbeat object with an {@code agent}. */
    public static Optional<AgentStatus> parse(String json, long nowMs) {
        return Heartbeat.parse(json).map(h -> new AgentStatus(h.agent(), h.iface(), h.time(), h.received(),
                h.droppedKernel(), h.droppedInterface(), h.decodeErrors(), h.spooled(), h.dropped(),
                nowMs - h.time() > SILENT_AFTER_MS));
    }
}
