package io.siteflow.agent.readback;

import io.siteflow.agent.app.CapturePipeline;
import io.siteflow.agent.capture.file.CaptureFileReader;
import io.siteflow.agent.flow.FlowTable;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.L7Tracker;
import io.siteflow.agent.flow.RecordFactory;
import io.siteflow.agent.flow.RemoteSiteFilter;
import io.siteflow.agent.publish.FlowSink;
import io.siteflow.model.FlowRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads a capture through the agent's own path (reader → pipeline → flow table) and keeps every record. */
final class ReadBack {
    private ReadBack() {
    }

    static List<FlowRecord> records(Path pcap) throws Exception {
        List<FlowRecord> records = new ArrayList<>();
        FlowSink sink = new FlowSink() {
            @Override
            public void accept(FlowRecord r) {
                records.add(r);
            }

            @Override
            public void close() {
            }
        };
        FlowTable table = new FlowTable(FlowTableConfig.DEFAULTS, new RecordFactory("test", "eth0", "run"), sink,
                L7Tracker.NONE);
        CapturePipeline pipeline = new CapturePipeline(new RemoteSiteFilter(List.of()), table, null, lt -> {
            throw new AssertionError("link type " + lt);
        });
        try (CaptureFileReader reader = CaptureFileReader.open(pcap)) {
            reader.run(pipeline);
        }
        table.flushAll();
        return records;
    }

    /** {@code proto client:port server:port} of a record, with the truth's client as given by {@code clientFirst}. */
    static String key(FlowRecord r, boolean srcIsClient) {
        return srcIsClient ? r.proto() + " " + r.src() + ":" + r.srcPort() + " " + r.dst() + ":" + r.dstPort()
                : r.proto() + " " + r.dst() + ":" + r.dstPort() + " " + r.src() + ":" + r.srcPort();
    }
}
