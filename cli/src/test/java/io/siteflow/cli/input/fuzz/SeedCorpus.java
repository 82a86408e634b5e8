package io.siteflow.cli.input.fuzz;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes the seed inputs of this module's fuzz harnesses ({@link FlowLogFuzzTest}) in code: flow-record JSON lines
 * by {@link FlowRecordJson} (an agent's record and an exporter's sampled one), AWS VPC Flow Logs in the default
 * format (version 2, with and without header) and a custom format with TCP flags and packet addresses, OCI VCN flow
 * logs one entry a line and as the console's JSON array, from the formats the readers' tests write. Run by
 * {@code bench/fuzz.sh --seeds}; the output is committed under {@code src/test/resources/io/siteflow/cli/input/fuzz/}.
 * Argument: the module directory.
 */
public final class SeedCorpus {
    private static final String AWS_HEADER = "version account-id interface-id srcaddr dstaddr srcport dstport "
            + "protocol packets bytes start end action log-status";

    private SeedCorpus() {
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]).resolve("src/test/resources/io/siteflow/cli/input/fuzz/FlowLogFuzzTestInputs");
        List<FlowRecord> records = List.of(
                FlowRecord.builder().id("run1-17").agent("wls3").iface("ens3")
                        .time(1_764_000_000_000L, 1_764_000_010_000L)
                        .endpoints(6, "10.2.0.20", 40112, "10.1.0.10", 1521)
                        .forward(9_312_000, 7000, 9_802_000, 0x1B).reverse(120_000, 3000, 318_000, 0x1B)
                        .rttMicros(6500L).build(),
                FlowRecord.builder().id("collect-3").agent("edge-r2").iface("0.0.0.0:2055")
                        .time(1_764_000_000_000L, 1_764_000_004_000L).endpoints(17, "10.2.0.21", 53011, "10.1.0.2", 53)
                        .forward(6100, 100, 0, 0).reverse(7700, 100, 0, 0).exporter("192.0.2.1", 7L).sampled(100)
                        .isFinal(true).build());
        StringBuilder lines = new StringBuilder();
        for (FlowRecord r : records) {
            lines.append(FlowRecordJson.toJson(r)).append('\n');
        }
        write(out.resolve("readsAnyFlowRecordLines"), "agent-and-exporter-records", lines.toString());

        Path aws = out.resolve("readsAnyAwsFlowLog");
        write(aws, "default-format-with-header", String.join("\n", AWS_HEADER,
                "2 123456789012 eni-0a1 10.2.0.20 10.1.0.10 40112 1521 6 10 5200 1700000000 1700000030 ACCEPT OK",
                "2 123456789012 eni-0a1 10.1.0.10 10.2.0.20 1521 40112 6 8 12000 1700000001 1700000031 ACCEPT OK",
                "2 123456789012 eni-0a1 - - - - - - - 1700000000 1700000060 - NODATA",
                "2 123456789012 eni-0a1 198.51.100.7 10.2.0.20 55000 22 6 3 180 1700000005 1700000005 REJECT OK",
                ""));
        write(aws, "default-format-without-header",
                "2 123456789012 eni-0a1 10.1.0.10 10.2.0.20 1521 40112 6 8 12000 1700000001 1700000031 ACCEPT OK\n");
        write(aws, "custom-format-flags-and-packet-addresses", String.join("\n",
                "interface-id srcaddr dstaddr pkt-srcaddr pkt-dstaddr srcport dstport protocol packets bytes start end "
                        + "action log-status tcp-flags",
                "eni-0b2 10.2.0.20 10.1.0.10 10.2.0.20 10.1.0.10 6000 5000 6 4 400 1700000000 1700000010 ACCEPT OK 2",
                "eni-0b2 10.1.0.10 10.2.0.20 10.1.0.10 10.2.0.20 5000 6000 6 3 900 1700000000 1700000010 ACCEPT OK 18",
                "eni-0b2 2001:db8::1 2001:db8::2 - - 0 0 58 1 64 1700000000 1700000000 ACCEPT OK 0",
                ""));

        Path oci = out.resolve("readsAnyOciFlowLog");
        String forward = data("10.2.0.20", "10.1.0.10", 40112, 1521, 10, 5200, "ACCEPT");
        String back = data("10.1.0.10", "10.2.0.20", 1521, 40112, 8, 12000, "ACCEPT");
        String rejected = data("198.51.100.7", "10.2.0.20", 55000, 22, 3, 180, "REJECT");
        write(oci, "entry-lines", String.join("\n", entry(forward), "{\"logContent\":" + entry(back) + "}",
                entry("\"startTime\":1700000000,\"endTime\":1700000060,\"status\":\"NODATA\""), entry(rejected), ""));
        write(oci, "console-search-export", String.join("\n", "[",
                "  {\"datetime\": 1700000000000, \"logContent\": " + entry(forward) + "},",
                "  {\"datetime\": 1700000000000,",
                "   \"logContent\": " + entry(back) + "}",
                "]", ""));
    }

    private static String data(String src, String dst, int srcPort, int dstPort, long packets, long bytes,
            String action) {
        return "\"sourceAddress\":\"" + src + "\",\"destinationAddress\":\"" + dst + "\",\"sourcePort\":" + srcPort
                + ",\"destinationPort\":" + dstPort + ",\"protocol\":6,\"packets\":" + packets + ",\"bytesOut\":"
                + bytes + ",\"startTime\":1700000000,\"endTime\":1700000030,\"action\":\"" + action
                + "\",\"status\":\"OK\"";
    }

    private static String entry(String data) {
        return "{\"data\":{" + data + ",\"version\":\"2\"},\"id\":\"e1\",\"oracle\":{\"vnicocid\":"
                + "\"ocid1.vnic.oc1.eu-frankfurt-1.abc\"},\"source\":\"-\",\"specversion\":\"1.0\","
                + "\"time\":\"2023-11-14T22:13:20.000Z\",\"type\":\"com.oraclecloud.vcn.flowlogs.DataEvent\"}";
    }

    private static void write(Path dir, String name, String content) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }
}
