package io.siteflow.processor.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordFormatException;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.processor.topology.TopologySpec;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Fuzz harnesses for the topology's binary flow-record codec ({@link TopologySpec#FLOW_RECORD}, the
 * {@code by-server} repartition topic; it reads JSON too). Any bytes read as a record or fail with a
 * {@link SerializationException} naming the topic, never another exception; what reads writes back to bytes
 * that read the same and write back the same; every record the JSON codec accepts survives the binary round trip. Seeds:
 * {@code src/test/resources/io/siteflow/processor/fuzz/FlowRecordBinaryFuzzTestInputs/}; docs/FUZZING.md.
 */
class FlowRecordBinaryFuzzTest {
    private static final String TOPIC = "siteflow-by-server-repartition";
    private final Serializer<FlowRecord> writer = TopologySpec.FLOW_RECORD.serializer();
    private final Deserializer<FlowRecord> reader = TopologySpec.FLOW_RECORD.deserializer();

    @FuzzTest
    void readsOrRefusesNamingTheTopic(byte[] value) {
        FlowRecord r;
        try {
            r = reader.deserialize(TOPIC, value);
        } catch (SerializationException e) {
            assertThat(e.getMessage()).startsWith(TOPIC + ": ");
            return;
        }
        byte[] written = writer.serialize(TOPIC, r);
        assertThat(reader.deserialize(TOPIC, written)).isEqualTo(r);
        assertThat(writer.serialize(TOPIC, reader.deserialize(TOPIC, written))).isEqualTo(written);
    }

    @FuzzTest
    void roundTripsEveryRecordTheJsonCodecAccepts(byte[] json) {
        FlowRecord r;
        try {
            r = FlowRecordJson.parse(json);
        } catch (FlowRecordFormatException e) {
            return;
        }
        byte[] binary = writer.serialize(TOPIC, r);
        assertThat(binary[0]).isNotEqualTo((byte) '{');
        assertThat(reader.deserialize(TOPIC, binary)).isEqualTo(r);
    }
}
