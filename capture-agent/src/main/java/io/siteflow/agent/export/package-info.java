/**
 * Flow exports as a source ({@code siteflow collect}): NetFlow v5, NetFlow v9 and IPFIX datagrams decoded from a
 * {@link java.nio.ByteBuffer} without allocation per field ({@link io.siteflow.agent.export.ExportDecoder}), templates
 * and sequence numbers kept per exporter and observation domain ({@link io.siteflow.agent.export.ExporterState}),
 * the two directions of a conversation joined into one flow record ({@link io.siteflow.agent.export.BiflowJoiner}),
 * and the UDP listener that gives the records to the agent's sinks ({@link io.siteflow.agent.export.ExportSource},
 * a {@link io.siteflow.agent.source.FlowSource}). See capture-agent/docs/collect.md.
 */
package io.siteflow.agent.export;
