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

    private static final class FixedSource implements PacketSource {
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

        try (AgentMetrics m = AgentMetrics.start(0, null, pipeline.counters(), table, new FixedSource(), () -> 4)) {
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
                    .contains("siteflow_agent_flows_active 1.0");
        }
    }

    @Test
    void listensOnTheAddressItIsGivenOnly() throws Exception {
        FlowSink sink = NO_SINK;
        FlowTable table = new FlowTable(FlowTableConfig.DEFAULTS, new RecordFactory("a", "eth0", "r"), sink, L7Tracker.NONE);
        CapturePipeline pipeline = new CapturePipeline(new RemoteSiteFilter(List.of()), table, null, lt -> { });
        HttpClient http = HttpClient.newHttpClient();

        try (AgentMetrics m = AgentMetrics.start(0, "127.0.0.2", pipeline.counters(), table, new FixedSource(), () -> 0)) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.2:" + m.port()
                    + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).contains("siteflow_agent_kernel_drops_total 7.0");
            assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + m.port()
                    + "/metrics")).build(), HttpResponse.BodyHandlers.ofString())).isInstanceOf(ConnectException.class);
        }
    }
}
