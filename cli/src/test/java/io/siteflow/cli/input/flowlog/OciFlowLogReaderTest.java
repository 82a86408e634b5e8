package io.siteflow.cli.input.flowlog;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.FlowRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * OCI VCN flow logs as the Logging service exports them (one JSON log entry a line, the flow in {@code data}),
 * written here from the documented record: both directions joined, NODATA skipped, REJECT left out, bad lines
 * named.
 */
class OciFlowLogReaderTest {
    private static final String VNIC = "ocid1.vnic.oc1.eu-frankfurt-1.abc";

    private final List<FlowRecord> records = new ArrayList<>();

    @Test
    void joinsBothDirectionsIntoOneRecord() throws IOException {
        ReadResult r = read(
                entry("\"sourceAddress\":\"10.1.0.10\",\"destinationAddress\":\"10.2.0.20\",\"sourcePort\":1521,"
                        + "\"destinationPort\":40112,\"protocol\":6,\"packets\":8,\"bytesOut\":12000,"
                        + "\"startTime\":1700000001,\"endTime\":1700000031,\"action\":\"ACCEPT\",\"status\":\"OK\""),
                "{\"logContent\":" + entry("\"sourceAddress\":\"10.2.0.20\",\"destinationAddress\":\"10.1.0.10\","
                        + "\"sourcePort\":40112,\"destinationPort\":1521,\"protocol\":6,\"packets\":10,"
                        + "\"bytesOut\":5200,\"startTime\":1700000000,\"endTime\":1700000030,\"action\":\"ACCEPT\","
                        + "\"status\":\"OK\"") + "}",
                entry("\"startTime\":1700000000,\"endTime\":1700000060,\"status\":\"NODATA\""),
                entry("\"sourceAddress\":\"198.51.100.7\",\"destinationAddress\":\"10.2.0.20\",\"sourcePort\":55000,"
                        + "\"destinationPort\":22,\"protocol\":6,\"packets\":3,\"bytesOut\":180,"
                        + "\"startTime\":1700000005,\"endTime\":1700000005,\"action\":\"REJECT\",\"status\":\"OK\""));

        assertThat(r.problems()).isEmpty();
        assertThat(r.notes()).containsExactly("oci.log: 1 REJECT rows (180 bytes) left out of the totals");
        assertThat(records).hasSize(1);
        FlowRecord f = records.get(0);
        assertThat(List.of(f.src(), f.srcPort(), f.dst(), f.dstPort())).containsExactly("10.2.0.20", 40112,
                "10.1.0.10", 1521);
        assertThat(List.of(f.bytes(), f.packets(), f.rbytes(), f.rpackets())).containsExactly(5200L, 10L, 12000L, 8L);
        assertThat(List.of(f.start(), f.end())).containsExactly(1_700_000_000_000L, 1_700_000_031_000L);
        assertThat(f.iface()).isEqualTo(VNIC);
    }

    @Test
    void namesEveryMalformedLineByLineAndFieldAndReadsTheRest() throws IOException {
        ReadResult r = read(
                "{\"data\": {",
                "{\"id\":\"x\"}",
                entry("\"sourceAddress\":\"10.2.0.20\",\"destinationAddress\":\"10.1.0.10\",\"sourcePort\":40112,"
                        + "\"destinationPort\":1521,\"protocol\":6,\"packets\":10,"
                        + "\"startTime\":1700000000,\"endTime\":1700000030,\"action\":\"ACCEPT\",\"status\":\"OK\""),
                entry("\"sourceAddress\":\"10.2.0.20\",\"destinationAddress\":\"10.1.0.10\",\"sourcePort\":\"x\","
                        + "\"destinationPort\":1521,\"protocol\":6,\"packets\":10,\"bytesOut\":5,"
                        + "\"startTime\":1700000000,\"endTime\":1700000030,\"action\":\"ACCEPT\",\"status\":\"OK\""),
                entry("\"startTime\":1700000000,\"endTime\":1700000060,\"status\":\"SKIPDATA\""),
                entry("\"sourceAddress\":\"10.2.0.21\",\"destinationAddress\":\"10.1.0.10\",\"protocol\":1,"
                        + "\"packets\":2,\"bytesOut\":168,\"startTime\":1700000000,\"endTime\":1700000001,"
                        + "\"action\":\"ACCEPT\",\"status\":\"OK\""));

        assertThat(r.problems()).hasSize(5);
        assertThat(r.problems().get(0)).startsWith("oci.log:1: entry: not JSON: ");
        assertThat(r.problems().subList(1, 5)).containsExactly(
                "oci.log:2: data: missing",
                "oci.log:3: bytesOut: missing",
                "oci.log:4: sourcePort: \"x\" is not a number",
                "oci.log:5: status: SKIPDATA: OCI skipped records in this capture window; the totals miss them");
        assertThat(records).hasSize(1);
        FlowRecord icmp = records.get(0);
        assertThat(List.of(icmp.proto(), icmp.srcPort(), icmp.dstPort(), icmp.bytes())).containsExactly(1, 0, 0, 168L);
    }

    @Test
    void readsTheConsolesSearchExportAJsonArrayNamingEachEntryByTheLineItStartsOn() throws IOException {
        String ok = entry("\"sourceAddress\":\"10.2.0.20\",\"destinationAddress\":\"10.1.0.10\","
                + "\"sourcePort\":40112,\"destinationPort\":1521,\"protocol\":6,\"packets\":10,\"bytesOut\":5200,"
                + "\"startTime\":1700000000,\"endTime\":1700000030,\"action\":\"ACCEPT\",\"status\":\"OK\"");
        String bad = entry("\"sourceAddress\":\"10.2.0.20\",\"destinationAddress\":\"10.1.0.10\","
                + "\"sourcePort\":40112,\"destinationPort\":1521,\"protocol\":6,\"packets\":10,\"bytesOut\":-1,"
                + "\"startTime\":1700000000,\"endTime\":1700000030,\"action\":\"ACCEPT\",\"status\":\"OK\"");

        ReadResult r = read("[", "  {\"datetime\": 1700000000000, \"logContent\": " + ok + "},",
                "  {\"datetime\": 1700000000000,", "   \"logContent\": " + bad + "}", "]");

        assertThat(r.problems()).containsExactly("oci.log:3: bytesOut: -1 is not 0-9223372036854775807");
        assertThat(records).extracting(FlowRecord::bytes).containsExactly(5200L);
    }

    @Test
    void namesTheLastLineWhenTheFileEndsInsideTheArrayAndKeepsTheEntriesBefore() throws IOException {
        // found by FlowLogFuzzTest#readsAnyOciFlowLog: the end of input was named as line 3 of a 2-line file
        String ok = entry("\"sourceAddress\":\"10.2.0.20\",\"destinationAddress\":\"10.1.0.10\",\"sourcePort\":40112,"
                + "\"destinationPort\":1521,\"protocol\":6,\"packets\":10,\"bytesOut\":5200,\"startTime\":1700000000,"
                + "\"endTime\":1700000030,\"action\":\"ACCEPT\",\"status\":\"OK\"");

        ReadResult r = read("[", "  {\"datetime\": 1700000000000, \"logContent\": " + ok + "},");

        assertThat(r.problems()).containsExactly("oci.log:2: entry: not JSON: Unexpected end-of-input within/between "
                + "Array entries; the rest of the file is not read");
        assertThat(records).extracting(FlowRecord::bytes).containsExactly(5200L);
    }

    private static String entry(String data) {
        return "{\"data\":{" + data + ",\"version\":\"2\"},\"id\":\"e1\",\"oracle\":{\"vnicocid\":\"" + VNIC
                + "\"},\"source\":\"-\",\"specversion\":\"1.0\",\"time\":\"2023-11-14T22:13:20.000Z\","
                + "\"type\":\"com.oraclecloud.vcn.flowlogs.DataEvent\"}";
    }

    private ReadResult read(String... lines) throws IOException {
        return OciFlowLogReader.read("oci.log", new BufferedReader(new StringReader(String.join("\n", lines) + "\n")),
                new FlowLogJoiner("audit", "audit-oci.log", records::add));
    }
}
