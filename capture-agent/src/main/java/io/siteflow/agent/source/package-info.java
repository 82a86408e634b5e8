/**
 * The seam between where records come from and where they go: {@link io.siteflow.agent.source.FlowSource}. Every
 * source (capture files and live libpcap through the packet pipeline; in-kernel eBPF aggregation and flow-export
 * collectors next) gives flow records to the same sinks; the command wires one source and the sinks in one line.
 */
package io.siteflow.agent.source;
