package io.siteflow.processor.query;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.siteflow.model.wire.Heartbeat;
import java.util.Optional;

/**
 * An agent's last heartbeat as the processor saw it.
 *
 * @param agent            agent id
 * @param iface            interface or file it captures from
 * @param lastSeenMs       epoch ms of the heartbeat
 * @param received         packets received since the agent started
 * @param droppedKernel    packets dropped by the kernel
 * @param droppedInterface packets dropped by the interface
 * @param decodeErrors     packets not decoded
 * @param spooled          records waiting in the agent's disk spool
 * @param dropped          records the agent dropped (spool full)
 * @param silent           true when no heartbeat came for 30 s
 * @param export           a collector's export counters ({@code siteflow collect}); null, and left out of the JSON,
 *                         for a capture agent
 */
public record AgentStatus(String agent, String iface, long lastSeenMs, long received, long droppedKernel,
        long droppedInterface, long decodeErrors, long spooled, long dropped, boolean silent,
        @JsonInclude(JsonInclude.Include.NON_NULL) Heartbeat.Export export) {
    /** An agent is silent when its last heartbeat is older than this (wall clock). */
    public static final long SILENT_AFTER_MS = io.siteflow.processor.topology.HeartbeatStep.SILENT_AFTER_MS;

    /**
     * The status in a heartbeat from {@code siteflow.agents}, read by {@link Heartbeat#parse} (the class the agent
     * writes it with; unknown fields skipped, missing counters 0); {@code recordsSent} is read but not shown.
     *
     * @return empty when the text is no heartbeat object with an {@code agent}
     */
    public static Optional<AgentStatus> of(String json, long nowMs) {
        return Heartbeat.parse(json).map(h -> new AgentStatus(h.agent(), h.iface(), h.time(), h.received(),
                h.droppedKernel(), h.droppedInterface(), h.decodeErrors(), h.spooled(), h.dropped(),
                nowMs - h.time() > SILENT_AFTER_MS, h.export()));
    }
}
