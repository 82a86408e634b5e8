package io.siteflow.model.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordFormatException;
import io.siteflow.model.FlowRecordJson;

/**
 * Fuzz harnesses for the flow-record JSON codec (DESIGN.md "Flow record"). Bytes from the wire either parse
 * or give a {@link FlowRecordFormatException} with a message; whatever parses writes back to JSON that parses
 * to the same record and writes back to the same bytes; any record the fuzzer builds survives the round trip. Seeds and kept findings:
 * {@code src/test/resources/io/siteflow/model/fuzz/FlowRecordJsonFuzzTestInputs/}; how to fuzz: docs/FUZZING.md.
 */
class FlowRecordJsonFuzzTest {

    @FuzzTest
    void parsesOrRejectsWithAMessage(byte[] json) throws FlowRecordFormatException {
        FlowRecord r;
        try {
            r = FlowRecordJson.parse(json);
        } catch (FlowRecordFormatException e) {
            assertThat(e.getMessage()).isNotBlank();
            return;
        }
        byte[] written = FlowRecordJson.toBytes(r);
        assertThat(FlowRecordJson.parse(written)).isEqualTo(r);
        assertThat(FlowRecordJson.toBytes(FlowRecordJson.parse(written))).isEqualTo(written);
    }

    @FuzzTest
    void roundTripsEveryRecord(FuzzedDataProvider in) throws FlowRecordFormatException {
        FlowRecord r = FuzzRecords.record(in);
        assertThat(FlowRecordJson.parse(FlowRecordJson.toBytes(r))).isEqualTo(r);
        assertThat(FlowRecordJson.parse(FlowRecordJson.toJson(r))).isEqualTo(r);
    }
}
