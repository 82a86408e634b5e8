package io.siteflow.processor.query;

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
 */
public record AgentStatus(String agent, String iface, long lastSeenMs, long received, long droppedKernel,
        long droppedInterface, long decodeErrors, long spooled, long dropped, boolean silent) {
}
