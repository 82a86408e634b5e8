package io.siteflow.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The flow record's JSON contract (schema 1, DESIGN.md "Flow record"): golden fixtures beside this test are what
 * {@link FlowRecordJson} writes, byte for byte, and read back into the same record; malformed input fails with the
 * exact message the codec gives.
 */
class FlowRecordJsonTest {
    /** flow-record-full.json: every field, optional ones included; TCP to the database, ended. */
    static final FlowRecord FULL = FlowRecord.builder().id("7f3a9c2e-000000000042").agent("wls3").iface("ens3")
            .time(1_764_000_000_000L, 1_764_000_009_870L).endpoints(6, "10.2.0.20", 40112, "10.1.0.10", 1521)
            .forward(21_061_551, 15_203, 21_274_393, 0x1B).reverse(98_304_512, 70_211, 99_287_466, 0x1A)
            .rttMicros(6512L).dataRttMicros(6498L).l7(L7Protocol.TLS).sni("db1.region1.example.com")
            .db(3, 26_000, CallHistogram.of(java.util.Map.of(454, 1L, 457, 1L, 463, 1L))).isFinal(true).build();
    /** flow-record-minimal.json: the required fields only; one ICMP echo from a capture file, ports 0. */
    static final FlowRecord MINIMAL = FlowRecord.builder().id("run1-1").agent("edge-a").iface("capture.pcap")
            .time(0, 0).endpoints(1, "10.2.0.20", 0, "10.1.0.10", 0).forward(84, 1, 98, 0).build();
    /** flow-record-ipv6.json: UDP between two IPv6 addresses (compressed form), Coherence TCMP. */
    static final FlowRecord IPV6 = FlowRecord.builder().id("run6-17").agent("wls3").iface("ens3")
            .time(1_764_000_000_000L, 1_764_000_000_420L).endpoints(17, "2001:db8:2::20", 7574, "2001:db8:1::a", 7574)
            .forward(4096, 4, 4168, 0).reverse(2048, 2, 2084, 0).l7(L7Protocol.COHERENCE_TCMP).build();

    /** flow-record-export.json: a flow exported by a router (siteflow collect), sampled 1 in 100, both directions. */
    static final FlowRecord EXPORTED = FlowRecord.builder().id("edge-b-mj2x1a-7").agent("edge-b").iface("0.0.0.0:2055")
            .time(1_764_000_000_000L, 1_764_000_009_870L).endpoints(6, "10.2.0.20", 40112, "10.1.0.10", 1521)
            .forward(2_106_155_100L, 1_520_300, 0, 0x1B).reverse(9_830_451_200L, 7_021_100, 0, 0x1A)
            .exporter("192.0.2.1", 4_294_967_295L).sampled(100).isFinal(true).build();

    private static String fixture(String name) {
        return Fixtures.text(FlowRecordJsonTest.class, name);
    }

    private static String full() {
        return fixture("flow-record-full.json");
    }

    @Test
    void writesARecordWithEveryFieldAsTheGoldenJson() {
        assertThat(FlowRecordJson.toJson(FULL)).isEqualTo(full());
        assertThat(new String(FlowRecordJson.toBytes(FULL), StandardCharsets.UTF_8)).isEqualTo(full());
    }

    @Test
    void readsTheGoldenJsonWithEveryFieldIntoTheSameRecord() throws Exception {
        assertThat(FlowRecordJson.parse(full())).isEqualTo(FULL);
        assertThat(FlowRecordJson.parse(full().getBytes(StandardCharsets.UTF_8))).isEqualTo(FULL);
    }

    @Test
    void leavesOutOptionalFieldsThatAreNotKnown() throws Exception {
        assertThat(FlowRecordJson.toJson(MINIMAL)).isEqualTo(fixture("flow-record-minimal.json"));
        assertThat(FlowRecordJson.parse(fixture("flow-record-minimal.json"))).isEqualTo(MINIMAL);
    }

    @Test
    void writesAndReadsTheFlowExportFieldsBeforeFinal() throws Exception {
        assertThat(FlowRecordJson.toJson(EXPORTED)).isEqualTo(fixture("flow-record-export.json"));
        assertThat(FlowRecordJson.parse(fixture("flow-record-export.json"))).isEqualTo(EXPORTED);
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "\"sampled\":100 | \"sampled\":1 | field \"sampled\": 1 is out of range (2-2147483647)",
        "\"observationDomain\":4294967295 | \"observationDomain\":4294967296 "
            + "| field \"observationDomain\": 4294967296 is out of range (0-4294967295)",
        "\"exporter\":\"192.0.2.1\" | \"exporter\":1 | field \"exporter\": expected a string, found VALUE_NUMBER_INT"})
    void rejectsABadFlowExportField(String field, String replacement, String message) {
        assertRejected(fixture("flow-record-export.json").replace(field, replacement), message);
    }

    @Test
    void carriesIpv6AddressesAsTheyAreWritten() throws Exception {
        assertThat(FlowRecordJson.toJson(IPV6)).isEqualTo(fixture("flow-record-ipv6.json"));
        assertThat(FlowRecordJson.parse(fixture("flow-record-ipv6.json"))).isEqualTo(IPV6);
    }

    @Test
    void carriesEveryL7ProtocolByItsWireName() throws Exception {
        List<String> lines = fixture("flow-record-l7-names.jsonl").lines().toList();
        List<L7Protocol> known = Arrays.stream(L7Protocol.values()).filter(p -> p != L7Protocol.UNKNOWN).toList();

        assertThat(lines).hasSameSizeAs(known);
        for (int i = 0; i < lines.size(); i++) {
            FlowRecord r = FlowRecordJson.parse(lines.get(i));
            assertThat(r.l7()).isEqualTo(known.get(i));
            assertThat(r.l7Text()).isNull();
            assertThat(r.l7WireName()).isEqualTo(known.get(i).wireName());
            assertThat(FlowRecordJson.toJson(r)).isEqualTo(lines.get(i));
        }
    }

    @Test
    void writesBackAnL7NameItDoesNotListExactlyAsItWasRead() throws Exception {
        // a newer agent's protocol ("redis"), the enum's own "unknown", another spelling of a listed name, junk:
        // a processor or audit of this version forwards each unchanged and classifies it by L7Protocol
        List<String> lines = fixture("flow-record-l7-unlisted.jsonl").lines().toList();
        List<L7Protocol> read = List.of(L7Protocol.UNKNOWN, L7Protocol.UNKNOWN, L7Protocol.ORACLE_TNS,
                L7Protocol.UNKNOWN);

        assertThat(lines).hasSameSizeAs(read);
        for (int i = 0; i < lines.size(); i++) {
            FlowRecord r = FlowRecordJson.parse(lines.get(i));
            assertThat(r.l7()).isEqualTo(read.get(i));
            assertThat(FlowRecordJson.toJson(r)).isEqualTo(lines.get(i));
            assertThat(FlowRecordJson.parse(FlowRecordJson.toBytes(r))).isEqualTo(r);
        }
    }

    @Test
    void readsNullOptionalFieldsAsAbsent() throws Exception {
        String json = fixture("flow-record-minimal.json").replace("\"final\":false",
                "\"rttMicros\":null,\"dataRttMicros\":null,\"l7\":null,\"sni\":null,\"final\":false");

        assertThat(FlowRecordJson.parse(json)).isEqualTo(MINIMAL);
    }

    @Test
    void skipsFieldsANewerWriterAdds() throws Exception {
        String json = full().replace("\"final\":true", "\"final\":true,\"dbCallsV2\":12,\"callHist\":[1,2,{\"x\":3}],"
                + "\"future\":{\"nested\":[true,null]},\"note\":\"x\"");

        assertThat(FlowRecordJson.parse(json)).isEqualTo(FULL);
    }

    @Test
    void roundTripsTextThatNeedsEscapingAndTheLargestCounters() throws Exception {
        long max = Long.MAX_VALUE;
        FlowRecord r = FlowRecord.builder().id("id-\u00e9").agent("agent \"ä\"\\\n").iface("eth0\t").time(max, max)
                .endpoints(255, "10.0.0.1", 65535, "10.0.0.2", 65535).forward(max, max, max, 0xFFF)
                .reverse(max, max, max, 0xFFF).rttMicros(max).dataRttMicros(0L).l7(L7Protocol.HTTP)
                .sni("host\u2603.example").isFinal(true).build();

        assertThat(FlowRecordJson.parse(FlowRecordJson.toBytes(r))).isEqualTo(r);
    }

    @ParameterizedTest(name = "without {0}")
    @CsvSource({"schema", "id", "agent", "iface", "start", "end", "proto", "src", "srcPort", "dst", "dstPort", "bytes",
        "packets", "rbytes", "rpackets", "frameBytes", "rframeBytes", "tcpFlags", "rtcpFlags", "final"})
    void rejectsARecordWithoutARequiredField(String field) {
        String json = without(full(), field);

        assertThatThrownBy(() -> FlowRecordJson.parse(json)).isInstanceOf(FlowRecordFormatException.class)
                .hasMessage("missing field \"" + field + "\"");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "\"srcPort\":40112 | \"srcPort\":\"40112\" | field \"srcPort\": expected an integer, found VALUE_STRING",
        "\"bytes\":21061551 | \"bytes\":2.5 | field \"bytes\": expected an integer, found VALUE_NUMBER_FLOAT",
        "\"bytes\":21061551 | \"bytes\":null | field \"bytes\": expected an integer, found null",
        "\"agent\":\"wls3\" | \"agent\":7 | field \"agent\": expected a string, found VALUE_NUMBER_INT",
        "\"src\":\"10.2.0.20\" | \"src\":[10] | field \"src\": expected a string, found [",
        "\"iface\":\"ens3\" | \"iface\":{} | field \"iface\": expected a string, found {",
        "\"final\":true | \"final\":1 | field \"final\": expected true or false, found VALUE_NUMBER_INT",
        "\"final\":true | \"final\":\"true\" | field \"final\": expected true or false, found VALUE_STRING",
        "\"l7\":\"tls\" | \"l7\":false | field \"l7\": expected a string, found false",
        "\"rttMicros\":6512 | \"rttMicros\":\"6512\" | field \"rttMicros\": expected an integer, found VALUE_STRING"})
    void rejectsAFieldOfTheWrongType(String field, String replacement, String message) {
        assertRejected(full().replace(field, replacement), message);
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "\"srcPort\":40112 | \"srcPort\":65536 | field \"srcPort\": 65536 is out of range (0-65535)",
        "\"dstPort\":1521 | \"dstPort\":-1 | field \"dstPort\": -1 is out of range (0-65535)",
        "\"proto\":6 | \"proto\":256 | field \"proto\": 256 is out of range (0-255)",
        "\"tcpFlags\":27 | \"tcpFlags\":4096 | field \"tcpFlags\": 4096 is out of range (0-4095)",
        "\"bytes\":21061551 | \"bytes\":-5 | field \"bytes\": -5 is out of range (0-9223372036854775807)",
        "\"bytes\":21061551 | \"bytes\":9223372036854775808 | field \"bytes\": 9223372036854775808 is out of range"})
    void rejectsANumberOutOfRange(String field, String replacement, String message) {
        assertRejected(full().replace(field, replacement), message);
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "{\"454\":1, | {\"x\":1, | field \"dbCallHistogram.x\": not a bucket (0-1048)",
        "{\"454\":1, | {\"1049\":1, | field \"dbCallHistogram.1049\": not a bucket (0-1048)",
        "{\"454\":1, | {\"454\":0, | field \"dbCallHistogram.454\": 0 is out of range (1-9223372036854775807)",
        "{\"454\":1, | {\"454\":2, | field \"dbCallHistogram\": 4 calls in the buckets, but dbCalls is 3",
        "\"dbCallHistogram\" | \"callHistogram\" | field \"dbCallHistogram\": 0 calls in the buckets, but dbCalls is 3"})
    void rejectsADbCallHistogramThatDoesNotAddUp(String field, String replacement, String message) {
        assertRejected(full().replace(field, replacement), message);
    }

    @Test
    void rejectsDbCallTimeWithoutCallsThatWouldVanishOnWriting() {
        // the writer leaves the DB call fields out when dbCalls is 0, so a record read with call time but no calls
        // would not write back what was read
        String minimal = fixture("flow-record-minimal.json");

        assertRejected(minimal.replace("\"final\"", "\"dbCallMicros\":5,\"final\""),
                "field \"dbCallMicros\": 5 without calls (dbCalls is 0)");
        assertRejected(minimal.replace("\"final\"", "\"dbCalls\":0,\"dbCallMicros\":5,\"final\""),
                "field \"dbCallMicros\": 5 without calls (dbCalls is 0)");
    }

    @Test
    void readsAnExplicitZeroOfDbCallsAsNone() throws Exception {
        String json = fixture("flow-record-minimal.json").replace("\"final\"",
                "\"dbCalls\":0,\"dbCallMicros\":0,\"dbCallHistogram\":{},\"final\"");

        assertThat(FlowRecordJson.parse(json)).isEqualTo(MINIMAL);
    }

    @Test
    void rejectsAnUnknownSchemaVersion() {
        assertRejected(full().replace("\"schema\":1", "\"schema\":2"), "schema 2 is not supported (expected 1)");
        assertRejected(full().replace("\"schema\":1", "\"schema\":0"),
                "field \"schema\": 0 is out of range (1-2147483647)");
    }

    @Test
    void rejectsTruncatedJson() {
        String cut = full().substring(0, full().indexOf(",\"dataRttMicros\""));

        assertRejected(cut, "not JSON: Unexpected end-of-input: expected close marker for Object (start marker at "
                + "[Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 1])"
                + " at byte " + cut.length());
    }

    @Test
    void rejectsTextThatIsNoJsonObject() {
        assertRejected("", "a flow record is a JSON object, found nothing");
        assertRejected("[" + full() + "]", "a flow record is a JSON object, found [");
        assertRejected("\"wls3\"", "a flow record is a JSON object, found VALUE_STRING");
        assertRejected("{\"schema\":1,,}", "not JSON: Unexpected character (',' (code 44)): "
                + "was expecting double-quote to start field name at byte 12");
        assertRejected("not json", "not JSON: Unrecognized token 'not': was expecting (JSON String, Number, Array, "
                + "Object or token 'null', 'true' or 'false') at byte 0");
    }

    @Test
    void rejectsTrailingDataAfterTheRecord() {
        assertRejected(full() + " {}", "trailing data after the record at byte " + (full().length() + 1));
    }

    /** {@code json} without the field {@code name} (and the comma that separated it). */
    private static String without(String json, String name) {
        String cut = json.replaceFirst("\"" + name + "\":[^,}]*,", "");
        return cut.equals(json) ? json.replaceFirst(",\"" + name + "\":[^,}]*", "") : cut;
    }

    private static void assertRejected(String json, String message) {
        assertThatThrownBy(() -> FlowRecordJson.parse(json)).isInstanceOf(FlowRecordFormatException.class)
                .hasMessage(message);
    }
}
