/**
 * What crosses Kafka besides the flow record, written and read by one class each: {@link
 * io.siteflow.model.wire.Topics} (every topic name) and {@link io.siteflow.model.wire.Heartbeat} (the agent
 * heartbeat on {@code siteflow.agents}), and {@link io.siteflow.kafka.BrokerReachability} (the one diagnosis of
 * an unreachable broker, printed by the agent and the processor). JDK and Jackson only, like the rest of
 * {@code flow-model}.
 */
package io.siteflow.model.wire;
