package io.siteflow.agent.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.RemoteSiteFilter;
import io.siteflow.agent.metrics.CaptureReadings;
import io.siteflow.agent.metrics.DecodeCounters;
import io.siteflow.agent.pipeline.PacketFlows;
import io.siteflow.agent.pipeline.Pipeline;
import io.siteflow.agent.source.FlowSource;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.model.cli.ExitCodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sources seam: a source that delivers flows, not packets (as the in-kernel aggregator and the flow-export
 * collector will), runs through the same {@link AgentRunner} into the same sinks; and the capture command's file
 * source is such a {@link FlowSource} too.
 */
class FlowSourceSeamTest {
    private static final String[] LINES = {
        "{\"schema\":1,\"agent\":\"edge\",\"iface\":\"ipfix\",\"start\":1764000000000,\"end\":1764000000500,\"proto\":6,"
                + "\"src\":\"10.2.0.20\",\"srcPort\":40112,\"dst\":\"10.1.0.10\",\"dstPort\":1521,\"bytes\":1000,"
                + "\"packets\":10,\"rbytes\":2000,\"rpackets\":12,\"frameBytes\":1140,\"rframeBytes\":2168,"
                + "\"tcpFlags\":27,\"rtcpFlags\":27,\"final\":true,\"id\":\"x-1\"}",
        "{\"schema\":1,\"agent\":\"edge\",\"iface\":\"ipfix\",\"start\":1764000001000,\"end\":1764000001000,\"proto\":17,"
                + "\"src\":\"10.2.0.21\",\"srcPort\":53000,\"dst\":\"10.1.0.53\",\"dstPort\":53,\"bytes\":60,"
                + "\"packets\":1,\"rbytes\":0,\"rpackets\":0,\"frameBytes\":74,\"rframeBytes\":0,"
                + "\"tcpFlags\":0,\"rtcpFlags\":0,\"final\":true,\"id\":\"x-2\"}"};

    /** Flows as an exporter would send them: no packets, no decoding, records straight to the sink. */
    private static final class ExportedFlows implements FlowSource, CaptureReadings {
        private final List<FlowRecord> records;
        private final List<String> losses;
        private final List<String> events = new ArrayList<>();

        ExportedFlows(List<FlowRecord> records) {
            this(records, List.of());
        }

        ExportedFlows(List<FlowRecord> records, List<String> losses) {
            this.records = records;
            this.losses = losses;
        }

        @Override
        public List<String> losses() {
            return losses;
        }

        @Override
        public void run(FlowSink sink) {
            records.forEach(sink::accept);
            sink.flush();
            events.add("ran");
        }

        @Override
        public void stop() {
            events.add("stopped");
        }

        @Override
        public CaptureReadings readings() {
            return this;
        }

        @Override
        public List<String> problems() {
            return List.of();
        }

        @Override
        public String name() {
            return "ipfix 0.0.0.0:4739";
        }

        @Override
        public CaptureStats stats() {
            return new CaptureStats(records.size(), 0, 0);
        }

        @Override
        public int workers() {
            return 1;
        }

        @Override
        public void close() {
            events.add("closed");
        }

        @Override
        public DecodeCounters counters() {
            return new DecodeCounters();
        }

        @Override
        public long activeFlows() {
            return 0;
        }

        @Override
        public long flowsCreated() {
            return records.size();
        }

        @Override
        public long evictions() {
            return 0;
        }

        @Override
        public long agentDrops() {
            return 0;
        }

        @Override
        public long agentDrops(int worker) {
            return 0;
        }
    }

    @Test
    void aSourceOfFlowsGivesItsRecordsToTheSameSinks() throws Exception {
        List<FlowRecord> records = List.of(FlowRecordJson.parse(LINES[0]), FlowRecordJson.parse(LINES[1]));
        CaptureOptions options = CaptureOptions.builder().file(Path.of("exports.ipfix")).json("-").agent("edge")
                .build();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        ExportedFlows source = new ExportedFlows(records);

        int code = new AgentRunner(options, new PrintWriter(out, true), new PrintWriter(err, true)).run(source, null);

        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).isEqualTo(FlowRecordJson.toJson(records.get(0)) + "\n"
                + FlowRecordJson.toJson(records.get(1)) + "\n");
        assertThat(err.toString()).startsWith("ipfix 0.0.0.0:4739: 2 packets received, 0 dropped by kernel, ")
                .contains("; 2 flows, 0 evicted early\n");
        assertThat(source.events).containsExactly("ran", "closed");
    }

    @Test
    void aCollectorThatLostDatagramsExitsOneNamingTheLossAfterWritingWhatItKept() throws Exception {
        List<FlowRecord> records = List.of(FlowRecordJson.parse(LINES[0]), FlowRecordJson.parse(LINES[1]));
        CaptureOptions options = CaptureOptions.builder().listen("127.0.0.1:2055").json("-").agent("edge").build();
        String loss = "150 of 250 datagrams lost: dropped because the receive pool (148000 bytes, "
                + "--receive-buffer-mb) was full (decoding fell behind); their flow records were not written";
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        StringWriter cleanErr = new StringWriter();

        int code = new AgentRunner(options, new PrintWriter(out, true), new PrintWriter(err, true))
                .run(new ExportedFlows(records, List.of(loss)), null);
        int clean = new AgentRunner(options, new PrintWriter(new StringWriter(), true),
                new PrintWriter(cleanErr, true)).run(new ExportedFlows(records), null);

        assertThat(code).as(err.toString()).isEqualTo(ExitCodes.FAILURE).isEqualTo(1);
        assertThat(err.toString()).endsWith("; 2 flows, 0 evicted early\nsiteflow collect: " + loss + "\n");
        assertThat(out.toString()).isEqualTo(FlowRecordJson.toJson(records.get(0)) + "\n"
                + FlowRecordJson.toJson(records.get(1)) + "\n");
        assertThat(clean).as(cleanErr.toString()).isZero();
        assertThat(cleanErr.toString()).doesNotContain("lost");
    }

    @Test
    void theCaptureFileSourceIsAFlowSourceOfPackets() throws Exception {
        Path file = Path.of(getClass().getResource("/golden/dns-udp.pcap").toURI());
        CaptureOptions options = CaptureOptions.builder().file(file).json("-").agent("golden").build();

        Pipeline.Settings settings = new Pipeline.Settings("golden", "run", FlowTableConfig.DEFAULTS,
                new RemoteSiteFilter(List.of()), null);
        try (FlowSource source = Sources.open(options, settings)) {
            assertThat(source).isInstanceOf(PacketFlows.class);
            assertThat(source.name()).isEqualTo("dns-udp.pcap");
            assertThat(source.workers()).isEqualTo(1);
        }
    }
}
