/**
 * What crosses Kafka besides the flow record, written and read by one class each: {@link
 * io.siteflow.model.wire.Topics} (every topic name) and {@link io.siteflow.model.wire.Heartbeat} (the agent
 * heartbeat on {@code siteflow.agents}), {@link io.siteflow.model.wire.FlowKeys} (the key of a flow record and the
 * partition of a key) and {@link io.siteflow.model.wire.ClockSkew} (how far ahead of the clock an event may be
 * dated). JDK and Jackson only, like the rest of {@code flow-model}: no sockets and no TLS (the broker reachability
 * diagnosis is {@code io.siteflow.kafka.BrokerReachability}, in kafka-client).
 */
package io.siteflow.model.wire;
