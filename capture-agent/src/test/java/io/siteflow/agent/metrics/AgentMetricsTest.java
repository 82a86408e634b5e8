package io.siteflow.agent.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.agent.pipeline.CapturePipeline;
import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.capture.PacketHandler;
import io.siteflow.agent.capture.PacketSource;
import io.siteflow.agent.flow.FlowTable;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.L7Tracker;
import io.siteflow.agent.flow.RecordFactory;
import io.siteflow.agent.flow.RemoteSiteFilter;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.model.Cidr;
import io.siteflow.model.FlowRecord;
import io.siteflow.synth.Endpoint;
import io.siteflow.synth.Frames;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --metrics-port}: the agent's counters in Prometheus text on loopback. */
class AgentMetricsTest {

    private static class FixedSource implements PacketSource {
        @Override
        public void run(PacketHandler handler) {
        }

        @Override
        public void stop() {
        }

        @Override
        public CaptureStats stats() {
            return new CaptureStats(3, 7, 1);
        }

        @Override
        public String name() {
            return "eth0";
        }

        @Override
        public void close() {
        }
    }

    /** Two workers: 3 + 5 packets received, 7 + 2 dropped by the kernel, 1 + 0 by the interface. */
    private static final class TwoWorkerSource extends FixedSource {
        @Override
        public int workers() {
            return 2;
        }

        @Override
        public List<CaptureStats> workerStats() {
            return List.of(new CaptureStats(3, 7, 1), new CaptureStats(5, 2, 0));
        }

        @Override
        public CaptureStats stats() {
            return new CaptureStats(8, 9, 1);
        }
    }

    /** The readings of one decoder and flow table, with fixed agent drops per worker. */
    private record Readings(CapturePipeline pipeline, FlowTable table, long... drops) implements CaptureReadings {
        @Override
        public DecodeCounters counters() {
            return pipeline.counters();
        }

        @Override
        public int workers() {
            return drops.length;
        }

        @Override
        public long activeFlows() {
            return table.size();
        }

        @Override
        public long flowsCreated() {
            return table.flowsCreated();
        }

        @Override
        public long evictions() {
            return table.evictions();
        }

        @Override
        public long agentDrops() {
            return java.util.Arrays.stream(drops).sum();
        }

        @Override
        public long agentDrops(int worker) {
            return drops[worker];
        }
    }

    private static final FlowSink NO_SINK = new FlowSink() {
        @Override
        public void accept(FlowRecord r) {
        }

        @Override
        public void close() {
        }
    };

    @Test
    void servesPacketDecodeFilterDropAndFlowCountersInPrometheusFormat() throws Exception {
        FlowSink sink = NO_SINK;
        RemoteSiteFilter filter = new RemoteSiteFilter(List.of(Cidr.parse("10.1.0.0/16")));
        FlowTable table = new FlowTable(FlowTableConfig.DEFAULTS, new RecordFactory("a", "eth0", "r"), sink, L7Tracker.NONE);
        CapturePipeline pipeline = new CapturePipeline(filter, table, null, lt -> { });
        byte[] cross = Frames.udp(Endpoint.of("10.2.0.20", 40000), Endpoint.of("10.1.0.10", 53), 1, new byte[10], 0, 10);
        byte[] local = Frames.udp(Endpoint.of("10.2.0.20", 40000), Endpoint.of("10.2.0.21", 53), 2, new byte[10], 0, 10);
        pipeline.onPacket(1_000_000_000L, 1, cross, 0, cross.length, cross.length);
        pipeline.onPacket(1_000_000_000L, 1, local, 0, local.length, local.length);
        pipeline.onPacket(1_000_000_000L, 1, new byte[5], 0, 5, 5);

        try (AgentMetrics m = AgentMetrics.start(0, null, new Readings(pipeline, table, 4), new FixedSource())) {
            HttpResponse<String> r = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + m.port() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).contains("siteflow_agent_packets_total{result=\"ip\"} 2.0")
                    .contains("siteflow_agent_packets_total{result=\"malformed\"} 1.0")
                    .contains("siteflow_agent_malformed_total{reason=\"link_truncated\"} 1.0")
                    .contains("siteflow_agent_filtered_total 1.0")
                    .contains("siteflow_agent_kept_total 1.0")
                    .contains("siteflow_agent_kernel_drops_total 7.0")
                    .contains("siteflow_agent_interface_drops_total 1.0")
                    .contains("siteflow_agent_handoff_drops_total 4.0")
                    .contains("siteflow_agent_flows_active 1.0")
                    .contains("siteflow_agent_worker_kernel_drops_total{worker=\"0\"} 7.0")
                    .doesNotContain("worker=\"1\"");
        }
    }

    @Test
    void givesEachWorkersReceivedAndDroppedPacketsBesideTheTotals() {
        FlowTable table = new FlowTable(FlowTableConfig.DEFAULTS, new RecordFactory("a", "eth0", "r"), NO_SINK,
                L7Tracker.NONE);
        CapturePipeline pipeline = new CapturePipeline(new RemoteSiteFilter(List.of()), table, null, lt -> { });

        try (AgentMetrics m = AgentMetrics.start(null, null, new Readings(pipeline, table, 6, 11), new TwoWorkerSource())) {
            assertThat(m.scrape()).contains("siteflow_agent_kernel_drops_total 9.0")
                    .contains("siteflow_agent_handoff_drops_total 17.0")
                    .contains("siteflow_agent_worker_received_total{worker=\"0\"} 3.0")
                    .contains("siteflow_agent_worker_received_total{worker=\"1\"} 5.0")
                    .contains("siteflow_agent_worker_kernel_drops_total{worker=\"0\"} 7.0")
                    .contains("siteflow_agent_worker_kernel_drops_total{worker=\"1\"} 2.0")
                    .contains("siteflow_agent_worker_interface_drops_total{worker=\"0\"} 1.0")
                    .contains("siteflow_agent_worker_interface_drops_total{worker=\"1\"} 0.0")
                    .contains("siteflow_agent_worker_handoff_drops_total{worker=\"0\"} 6.0")
                    .contains("siteflow_agent_worker_handoff_drops_total{worker=\"1\"} 11.0");
        }
    }

    @Test
    void listensOnTheAddressItIsGivenOnly() throws Exception {
        FlowSink sink = NO_SINK;
        FlowTable table = new FlowTable(FlowTableConfig.DEFAULTS, new RecordFactory("a", "eth0", "r"), sink, L7Tracker.NONE);
        CapturePipeline pipeline = new CapturePipeline(new RemoteSiteFilter(List.of()), table, null, lt -> { });
        HttpClient http = HttpClient.newHttpClient();

        try (AgentMetrics m = AgentMetrics.start(0, "127.0.0.2", new Readings(pipeline, table, 0), new FixedSource())) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.2:" + m.port()
                    + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).contains("siteflow_agent_kernel_drops_total 7.0");
            assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + m.port()
                    + "/metrics")).build(), HttpResponse.BodyHandlers.ofString())).isInstanceOf(ConnectException.class);
        }
    }
}
