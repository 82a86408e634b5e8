package io.siteflow.cli.input.flowlog;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Flow-record JSON lines as {@code capture --json} writes them: read as written, bad lines named, the rest read. */
class FlowRecordLinesReaderTest {

    @Test
    void readsEveryRecordAsWrittenAndNamesTheLinesThatDoNotParse() throws IOException {
        FlowRecord a = FlowRecord.builder().id("r-1").agent("wls3").iface("ens3").time(1000, 2000)
                .endpoints(6, "10.2.0.20", 40112, "10.1.0.10", 1521).forward(5200, 10, 5900, 0x1b)
                .reverse(12000, 8, 12560, 0x1b).rttMicros(6500L).l7("oracle-tns").isFinal(true).build();
        FlowRecord b = a.toBuilder().id("r-2").endpoints(17, "10.2.0.20", 53000, "10.1.0.2", 53).build();
        String bJson = FlowRecordJson.toJson(b);
        List<FlowRecord> read = new ArrayList<>();

        ReadResult r = FlowRecordLinesReader.read("flows.jsonl", new BufferedReader(new StringReader(
                FlowRecordJson.toJson(a) + "\n\n" + bJson.replace("\"bytes\":", "\"octets\":") + "\n" + bJson
                        + "\n[1]\n")), read::add);

        assertThat(read).containsExactly(a, b);
        assertThat(r.problems()).containsExactly(
                "flows.jsonl:3: record: missing field \"bytes\"",
                "flows.jsonl:5: record: a flow record is a JSON object, found [");
        assertThat(r.records()).isEqualTo(2);
        assertThat(r.packets()).isEqualTo(36);
    }
}
