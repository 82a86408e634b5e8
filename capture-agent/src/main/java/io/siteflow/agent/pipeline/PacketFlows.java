package io.siteflow.agent.pipeline;

import io.siteflow.agent.capture.CaptureException;
import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.capture.PacketSource;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.metrics.CaptureReadings;
import io.siteflow.agent.source.FlowSource;
import io.siteflow.model.FlowRecord;
import java.util.List;

/**
 * A {@link FlowSource} of packets: a capture file or a live capture (one handle or a fan-out group) through the
 * agent's {@link Pipeline} (clock check, decode, {@code -F} filter, flow table with signatures). The pipeline is
 * wired when this is made, so that its counters can be read before {@link #run}; the sink given to {@code run}
 * receives the records. Owns the packet source: {@link #close()} closes it.
 */
public final class PacketFlows implements FlowSource {
    private final PacketSource packets;
    private final boolean handOff;
    private final Forward forward = new Forward();
    private final Pipeline pipeline;

    /**
     * @param packets  the packet source (its {@link PacketSource#workers()} decide the pipeline's)
     * @param settings what the pipeline is wired with
     * @param handOff  true for live captures and paced replays: packets are aggregated on a worker thread behind a
     *                 bounded queue ({@link PacketHandoff}); false reads a file on the calling thread
     */
    public PacketFlows(PacketSource packets, Pipeline.Settings settings, boolean handOff) {
        this.packets = packets;
        this.handOff = handOff;
        this.pipeline = Pipeline.wire(packets.name(), settings, forward, packets.workers());
    }

    @Override
    public void run(FlowSink sink) throws CaptureException {
        forward.target = sink;
        pipeline.run(packets, handOff);
    }

    /** The pipeline, for what only a packet source has (its flow table, the records it made). */
    public Pipeline pipeline() {
        return pipeline;
    }

    @Override
    public CaptureReadings readings() {
        return pipeline;
    }

    @Override
    public List<String> problems() {
        return pipeline.problems();
    }

    @Override
    public void stop() {
        packets.stop();
    }

    @Override
    public String name() {
        return packets.name();
    }

    @Override
    public int workers() {
        return packets.workers();
    }

    @Override
    public CaptureStats stats() {
        return packets.stats();
    }

    @Override
    public List<CaptureStats> workerStats() {
        return packets.workerStats();
    }

    @Override
    public void close() {
        packets.close();
    }

    /** The flow tables' sink, handing on to the one {@link #run} was given; closing it is the caller's. */
    private static final class Forward implements FlowSink {
        private volatile FlowSink target;

        @Override
        public void accept(FlowRecord r) {
            target.accept(r);
        }

        @Override
        public void flush() {
            target.flush();
        }

        @Override
        public void close() {
        }
    }
}
