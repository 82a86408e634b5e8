package io.siteflow.agent.readback;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.capture.file.CaptureFileReader;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.RemoteSiteFilter;
import io.siteflow.agent.pipeline.Pipeline;
import io.siteflow.model.FlowRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads a capture through the agent's own path (reader → {@link Pipeline} → flow table) and keeps every record. */
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
        try (CaptureFileReader reader = CaptureFileReader.open(pcap)) {
            Pipeline pipeline = Pipeline.wire("eth0",
                    new Pipeline.Settings("test", "run", FlowTableConfig.DEFAULTS, new RemoteSiteFilter(List.of()), null),
                    sink);
            pipeline.run(reader, false);
            assertThat(pipeline.problems()).isEmpty();
        }
        return records;
    }

    /** {@code proto client:port server:port} of a record, with the truth's client as given by {@code clientFirst}. */
    static String key(FlowRecord r, boolean srcIsClient) {
        return srcIsClient ? r.proto() + " " + r.src() + ":" + r.srcPort() + " " + r.dst() + ":" + r.dstPort()
                : r.proto() + " " + r.dst() + ":" + r.dstPort() + " " + r.src() + ":" + r.srcPort();
    }
}
