package io.siteflow.agent.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.capture.PacketHandler;
import io.siteflow.agent.capture.PacketSource;
import io.siteflow.agent.decode.DecodeStatus;
import io.siteflow.agent.flow.CollectingSink;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.RemoteSiteFilter;
import io.siteflow.synth.Endpoint;
import io.siteflow.synth.Frames;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/** A pipeline wired for several workers: one decoder and flow table each, one sink, counters added up. */
class PipelineWorkersTest {
    private static final Pipeline.Settings SETTINGS = new Pipeline.Settings("a", "run", FlowTableConfig.DEFAULTS,
            new RemoteSiteFilter(List.of()), null);

    /** A source of two workers; {@code feed} gets the two handlers and delivers what it likes to each. */
    private record TwoWorkers(BiConsumer<PacketHandler, PacketHandler> feed) implements PacketSource {
        @Override
        public int workers() {
            return 2;
        }

        @Override
        public void run(List<? extends PacketHandler> handlers) {
            feed.accept(handlers.get(0), handlers.get(1));
        }

        @Override
        public void run(PacketHandler handler) {
            throw new AssertionError("a two-worker source is run with a handler per worker");
        }

        @Override
        public void stop() {
        }

        @Override
        public CaptureStats stats() {
            return CaptureStats.NONE;
        }

        @Override
        public String name() {
            return "eth0";
        }

        @Override
        public void close() {
        }
    }

    @Test
    void eachWorkersFlowsReachTheOneSinkWithIdsNamingTheWorkerAndCountersAddUp() throws Exception {
        CollectingSink sink = new CollectingSink();
        Pipeline pipeline = Pipeline.wire("eth0", SETTINGS, sink, 2);
        byte[] dns = Frames.udp(Endpoint.of("10.2.0.20", 40000), Endpoint.of("10.1.0.10", 53), 1, new byte[10], 0, 10);
        byte[] ntp = Frames.udp(Endpoint.of("10.2.0.21", 40001), Endpoint.of("10.1.0.11", 123), 2, new byte[20], 0, 20);

        pipeline.run(new TwoWorkers((w0, w1) -> {
            w0.onPacket(1_000_000_000L, 1, dns, 0, dns.length, dns.length);
            w0.onPacket(1_001_000_000L, 1, dns, 0, dns.length, dns.length);
            w1.onPacket(1_000_000_000L, 1, ntp, 0, ntp.length, ntp.length);
            w1.onPacket(1_002_000_000L, 1, new byte[5], 0, 5, 5);
        }), true);

        assertThat(sink.records).extracting(r -> r.id() + " " + r.dstPort() + " " + r.packets())
                .containsExactlyInAnyOrder("run-w0-1 53 2", "run-w1-1 123 1");
        assertThat(pipeline.counters().status(DecodeStatus.IP)).isEqualTo(3);
        assertThat(pipeline.counters().status(DecodeStatus.MALFORMED)).isEqualTo(1);
        assertThat(pipeline.counters().keptCount()).isEqualTo(3);
        assertThat(pipeline.flowsCreated()).isEqualTo(2);
        assertThat(pipeline.records()).isEqualTo(2);
        assertThat(pipeline.workers()).isEqualTo(2);
        assertThat(pipeline.agentDrops(0) + pipeline.agentDrops(1)).isZero();
    }

    @Test
    void refusesASourceWithAnotherNumberOfWorkers() {
        Pipeline pipeline = Pipeline.wire("eth0", SETTINGS, new CollectingSink());

        assertThatThrownBy(() -> pipeline.run(new TwoWorkers((w0, w1) -> { }), true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("eth0 has 2 workers; this pipeline was wired for 1");
    }
}
