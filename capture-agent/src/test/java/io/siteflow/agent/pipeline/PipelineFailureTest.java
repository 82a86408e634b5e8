package io.siteflow.agent.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.capture.PacketHandler;
import io.siteflow.agent.capture.PacketSource;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.RemoteSiteFilter;
import io.siteflow.model.FlowRecord;
import io.siteflow.synth.Endpoint;
import io.siteflow.synth.Frames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A worker that dies (its sink failed) stops the live source at once, and the run ends with the cause. */
class PipelineFailureTest {
    /** Packets the source delivers at most when nobody stops it. */
    private static final int LIMIT = 3_000_000;
    private static final long T0 = 1_764_000_000_000_000_000L;

    /** A live-like source: 64 UDP flows round and round, until stopped or {@link #LIMIT} packets. */
    private static final class Endless implements PacketSource {
        private final List<byte[]> frames = new ArrayList<>();
        private volatile boolean stopped;
        private long delivered;

        Endless() {
            for (int i = 0; i < 64; i++) {
                frames.add(Frames.udp(Endpoint.of("10.2.0.20", 40_000 + i), Endpoint.of("10.1.0.10", 1521), i,
                        new byte[20], 0, 20));
            }
        }

        @Override
        public void run(PacketHandler handler) {
            while (!stopped && delivered < LIMIT) {
                byte[] f = frames.get((int) (delivered % frames.size()));
                handler.onPacket(T0 + delivered * 1_000, 1, f, 0, f.length, f.length);
                delivered++;
            }
        }

        @Override
        public void stop() {
            stopped = true;
        }

        @Override
        public CaptureStats stats() {
            return new CaptureStats(delivered, 0, 0);
        }

        @Override
        public String name() {
            return "eth0";
        }

        @Override
        public void close() {
        }
    }

    /** A sink on a full disk: the first record fails. */
    private static final class FullDisk implements FlowSink {
        final AtomicInteger tried = new AtomicInteger();

        @Override
        public void accept(FlowRecord r) {
            tried.incrementAndGet();
            throw new UncheckedIOException("publish: json: flows.jsonl: No space left on device",
                    new IOException("No space left on device"));
        }

        @Override
        public void close() {
        }
    }

    @Test
    void aWorkerWhoseSinkFailsStopsTheSourceAndTheRunEndsWithTheCause() {
        // 16 flows at most: the 17th evicts one, whose record goes to the sink on the worker thread
        Pipeline.Settings settings = new Pipeline.Settings("a", "run", FlowTableConfig.DEFAULTS.withMaxFlows(16),
                new RemoteSiteFilter(List.of()), null);
        FullDisk sink = new FullDisk();
        Pipeline pipeline = Pipeline.wire("eth0", settings, sink);
        Endless source = new Endless();

        assertThatThrownBy(() -> pipeline.run(source, true)).isInstanceOf(IllegalStateException.class)
                .hasMessage("flows: publish: json: flows.jsonl: No space left on device")
                .hasRootCauseMessage("No space left on device");

        assertThat(source.stopped).as("the source was stopped").isTrue();
        assertThat(source.delivered).isLessThan(LIMIT);
        assertThat(sink.tried.get()).isEqualTo(1);
    }
}
