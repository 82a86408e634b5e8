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
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A source that buffers packets itself (a live TPACKET_V3 ring, {@link PacketSource#buffersPackets()}) is decoded
 * and aggregated on its own thread, with no hand-off: the same records as through the hand-off, the idle ticks it
 * gives end idle flows, and a sink that fails ends the run with the hand-off's message.
 */
class BufferedSourcePipelineTest {
    private static final long T0 = 1_764_000_000_000_000_000L;
    private static final Pipeline.Settings SETTINGS = new Pipeline.Settings("a", "run", FlowTableConfig.DEFAULTS,
            new RemoteSiteFilter(List.of()), null);

    /** 20 UDP flows, 5 packets each, 1 ms apart; then, when {@code idleAt} > 0, an idle tick at that time. */
    private static final class Source implements PacketSource {
        private final boolean buffers;
        private final long idleAt;
        private final List<byte[]> frames = new ArrayList<>();
        volatile String thread;
        volatile int delivered;
        final List<Integer> recordsAfterIdle = new ArrayList<>();
        private List<FlowRecord> records = List.of();

        Source(boolean buffers, long idleAt) {
            this.buffers = buffers;
            this.idleAt = idleAt;
            for (int i = 0; i < 100; i++) {
                frames.add(Frames.udp(Endpoint.of("10.2.0.20", 40_000 + i % 20), Endpoint.of("10.1.0.10", 1521), i,
                        new byte[20 + i], 0, 20 + i));
            }
        }

        Source watching(List<FlowRecord> sunk) {
            this.records = sunk;
            return this;
        }

        @Override
        public void run(PacketHandler handler) {
            thread = Thread.currentThread().getName();
            for (byte[] f : frames) {
                handler.onPacket(T0 + delivered * 1_000_000L, 1, f, 0, f.length, f.length);
                delivered++;
            }
            if (idleAt > 0) {
                handler.onIdle(idleAt);
                synchronized (records) {
                    recordsAfterIdle.add(records.size());
                }
            }
        }

        @Override
        public boolean buffersPackets() {
            return buffers;
        }

        @Override
        public void stop() {
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

    /** Keeps the records and the threads that gave them. */
    private static final class Kept implements FlowSink {
        final List<FlowRecord> records = Collections.synchronizedList(new ArrayList<>());
        final Set<String> threads = Collections.synchronizedSet(new TreeSet<>());

        @Override
        public void accept(FlowRecord r) {
            threads.add(Thread.currentThread().getName());
            records.add(r);
        }

        @Override
        public void close() {
        }
    }

    @Test
    void aSourceThatBuffersPacketsIsAggregatedOnItsOwnThreadIntoTheRecordsTheHandOffGives() throws Exception {
        Kept direct = new Kept();
        Pipeline onRing = Pipeline.wire("eth0", SETTINGS, direct);
        Source ring = new Source(true, 0);
        Thread t = new Thread(() -> {
            try {
                onRing.run(ring, true);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "ring-reader");
        t.start();
        t.join();
        Kept handedOff = new Kept();
        Pipeline viaQueue = Pipeline.wire("eth0", SETTINGS, handedOff);
        viaQueue.run(new Source(false, 0), true);

        assertThat(direct.records).hasSize(20).isEqualTo(handedOff.records);
        assertThat(direct.threads).containsExactly("ring-reader");
        assertThat(ring.thread).isEqualTo("ring-reader");
        assertThat(onRing.agentDrops()).isZero();
        assertThat(onRing.counters().keptCount()).isEqualTo(100);
    }

    @Test
    void anIdleTickEndsTheFlowsIdleLongerThanTheIdleTimeout() throws Exception {
        Kept kept = new Kept();
        Pipeline pipeline = Pipeline.wire("eth0", SETTINGS, kept);
        long lastPacket = T0 + 99 * 1_000_000L;
        Source ring = new Source(true, lastPacket + FlowTableConfig.DEFAULTS.idleTimeout().toNanos() + 1).watching(
                kept.records);

        pipeline.run(ring, true);

        assertThat(ring.recordsAfterIdle).containsExactly(20);
        assertThat(kept.records).hasSize(20).allSatisfy(r -> assertThat(r.isFinal()).isTrue());
    }

    @Test
    void aSinkThatFailsEndsTheRunWithTheCauseAsTheHandOffDoes() {
        FlowSink fullDisk = new FlowSink() {
            @Override
            public void accept(FlowRecord r) {
                throw new UncheckedIOException("publish: json: flows.jsonl: No space left on device",
                        new IOException("No space left on device"));
            }

            @Override
            public void close() {
            }
        };
        // 16 flows at most: the 17th evicts one, whose record goes to the failing sink
        Pipeline pipeline = Pipeline.wire("eth0", new Pipeline.Settings("a", "run",
                FlowTableConfig.DEFAULTS.withMaxFlows(16), new RemoteSiteFilter(List.of()), null), fullDisk);
        Source ring = new Source(true, 0);

        assertThatThrownBy(() -> pipeline.run(ring, true)).isInstanceOf(IllegalStateException.class)
                .hasMessage("flows: publish: json: flows.jsonl: No space left on device")
                .hasRootCauseMessage("No space left on device");
        assertThat(ring.delivered).isEqualTo(16);
    }
}
