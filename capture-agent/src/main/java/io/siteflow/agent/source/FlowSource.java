package io.siteflow.agent.source;

import io.micrometer.core.instrument.MeterRegistry;
import io.siteflow.agent.capture.CaptureException;
import io.siteflow.agent.capture.SourceCounters;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.metrics.CaptureReadings;
import java.util.List;

/**
 * The one seam every source of flow records plugs into (capture-agent/docs/sources.md): whatever it reads, it gives
 * {@link io.siteflow.model.FlowRecord}s to the same {@link FlowSink}s (JSON lines, Kafka, fan-out), and the meters,
 * the heartbeat and the summary read it through the same counters. Today: packets of a capture file or a live
 * libpcap handle (one or a fan-out group) aggregated by the agent's pipeline ({@code pipeline.PacketFlows}). Next:
 * flows aggregated in the kernel (eBPF) and flows exported by routers (IPFIX, NetFlow, sFlow), which implement this
 * interface directly and give their records to the sink as they come.
 *
 * <p>Threads: {@link #run} on one thread, once; {@link #stop()}, the counters and {@link #readings()} from any.
 */
public interface FlowSource extends SourceCounters, AutoCloseable {

    /**
     * Gives records to {@code sink} until the source ends or {@link #stop()} is called, then hands over every flow
     * it still holds and flushes the sink (which is not closed: the caller owns it). Input problems that leave the
     * run going are collected in {@link #problems()}.
     *
     * @throws CaptureException      when the source fails (nothing more is flushed then)
     * @throws IllegalStateException when a worker failed, with the cause ({@code "flows: publish: json: ..."}); the
     *                               source was stopped at once
     */
    void run(FlowSink sink) throws CaptureException;

    /** Asks {@link #run} to return soon; safe from any thread, including a signal handler's. */
    void stop();

    /**
     * What the meters, the heartbeat and the summary read while the source runs: decode counters (empty for a source
     * that receives flows), flows held and created, evictions, drops by the agent.
     */
    CaptureReadings readings();

    /** Messages about input not read whole, in the order met; empty when all was read. */
    List<String> problems();

    /**
     * Data the source received and then lost itself (a collector's datagrams its receive pool could not take), one
     * message each naming how many and why; empty by default and when nothing was lost. The run exits 1 when there is
     * one, as for records the Kafka sink lost. Called after {@link #run} returned.
     */
    default List<String> losses() {
        return List.of();
    }

    /**
     * Registers the meters of what only this kind of source counts (the collector's {@code siteflow.agent.collect.*})
     * beside the common ones; none by default. Called once, before {@link #run}.
     */
    default void registerMeters(MeterRegistry registry) {
    }

    /**
     * The end-of-run summary in this source's own words (a collector counts datagrams and flow records, not packets),
     * or empty for the packet sources' summary. Called after {@link #run} returned.
     */
    default List<String> summary() {
        return List.of();
    }

    @Override
    void close();
}
