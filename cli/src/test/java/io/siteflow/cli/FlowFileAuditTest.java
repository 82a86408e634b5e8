package io.siteflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.cli.input.FlowInput;
import io.siteflow.model.FlowRecord;
import io.siteflow.synth.CapturePoint;
import io.siteflow.synth.StretchedClusterScenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code siteflow audit} of flow files gives what {@code siteflow audit} of the capture they come from gives: the
 * capture's {@code capture --json} output the same verdicts and windows, an AWS VPC flow log written from the
 * capture's flows (two unidirectional rows a record, every packet covered) the same verdict, cross-site bytes and DB
 * share per server, exactly.
 */
class FlowFileAuditTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static Path capture;
    static Path sites;
    static JsonNode captureReport;

    @BeforeAll
    static void synthesiseCaptureAndAuditIt() throws Exception {
        capture = dir.resolve("stretched.pcap");
        StretchedClusterScenario.builder()
                .duration(Duration.ofSeconds(90))
                .capturePoint(CapturePoint.regionEdge("region2", 75_000))
                .build()
                .write(capture);
        sites = dir.resolve("sites.yaml");
        Files.copy(Path.of(System.getProperty("siteflow.root", "..")).resolve("deploy/conf/sites.yaml"), sites);
        captureReport = audit(capture);
    }

    @Test
    void auditOfTheCapturesJsonLinesGivesTheCapturesVerdictsAndWindows() throws Exception {
        Path jsonl = dir.resolve("flows.jsonl");
        CommandRun capture = CommandRun.of("capture", "-r", FlowFileAuditTest.capture.toString(),
                "--json=" + jsonl, "--agent", "audit");
        assertThat(capture.exitCode()).as(capture.err()).isZero();
        assertThat(FlowInput.kind(jsonl)).isEqualTo(FlowInput.Kind.FLOW_RECORDS);

        JsonNode report = audit(jsonl);

        assertThat(report.get("verdicts").size()).isEqualTo(2);
        assertThat(report.get("verdicts")).isEqualTo(captureReport.get("verdicts"));
        assertThat(report.get("windows")).isEqualTo(captureReport.get("windows"));
        assertThat(report.get("sitePairs")).isEqualTo(captureReport.get("sitePairs"));
    }

    @Test
    void auditOfAnAwsFlowLogOfTheSameFlowsGivesTheSameDbSharePerServer() throws Exception {
        Path log = dir.resolve("vpc-flow.log");
        List<String> rows = new ArrayList<>();
        rows.add("version account-id interface-id srcaddr dstaddr srcport dstport protocol packets bytes start end "
                + "action log-status");
        FlowInput.Result replay = FlowInput.replay(capture, "audit", r -> rows.addAll(awsRows(r)));
        assertThat(replay.complete()).isTrue();
        Files.write(log, rows);
        assertThat(FlowInput.kind(log)).isEqualTo(FlowInput.Kind.AWS_FLOW_LOG);

        JsonNode report = audit(log);

        JsonNode expected = captureReport.get("verdicts");
        assertThat(report.get("verdicts").size()).isEqualTo(expected.size()).isEqualTo(2);
        for (int i = 0; i < expected.size(); i++) {
            JsonNode want = expected.get(i);
            JsonNode got = report.get("verdicts").get(i);
            assertThat(got.get("server")).isEqualTo(want.get("server"));
            assertThat(got.get("verdict")).isEqualTo(want.get("verdict"));
            assertThat(got.get("crossBytes")).isEqualTo(want.get("crossBytes"));
            assertThat(got.get("dbShare").decimalValue()).isEqualByComparingTo(want.get("dbShare").decimalValue());
            assertThat(got.get("addresses")).isEqualTo(want.get("addresses"));
            assertThat(got.get("rttMicros").toString()).as("flow logs carry no RTT").isEqualTo("{\"samples\":0}");
            assertThat(want.get("rttMicros").get("samples").asLong()).isPositive();
        }
    }

    @Test
    void aMalformedLineIsNamedTheRestIsAuditedAndTheAuditExits2() throws Exception {
        Path jsonl = dir.resolve("cut.jsonl");
        CommandRun capture = CommandRun.of("capture", "-r", FlowFileAuditTest.capture.toString(),
                "--json=" + jsonl, "--agent", "audit");
        assertThat(capture.exitCode()).as(capture.err()).isZero();
        List<String> lines = new ArrayList<>(Files.readAllLines(jsonl));
        lines.add(3, "{\"schema\":1,\"agent\":\"audit\"}");
        Files.write(jsonl, lines);

        CommandRun run = CommandRun.of("audit", jsonl.toString(), "--sites", sites.toString(), "--format", "json");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo(jsonl + ":4: record: missing field \"iface\"\n");
        assertThat(JSON.readTree(run.out()).get("verdicts")).isEqualTo(captureReport.get("verdicts"));
    }

    @Test
    void whatifOfTheCapturesJsonLinesGivesTheCapturesAnswer() throws Exception {
        Path jsonl = dir.resolve("whatif.jsonl");
        CommandRun capture = CommandRun.of("capture", "-r", FlowFileAuditTest.capture.toString(),
                "--json=" + jsonl, "--agent", "whatif");
        assertThat(capture.exitCode()).as(capture.err()).isZero();

        CommandRun fromCapture = CommandRun.of("whatif", "--sites", sites.toString(), "--move", "wls3=region1",
                FlowFileAuditTest.capture.toString());
        CommandRun fromJson = CommandRun.of("whatif", "--sites", sites.toString(), "--move", "wls3=region1",
                jsonl.toString());

        assertThat(fromJson.exitCode()).as(fromJson.err()).isZero();
        assertThat(fromJson.out()).startsWith("what if wls3 (10.2.0.20) moved from region2 to region1\n")
                .isEqualTo(fromCapture.out());
    }

    @Test
    void recognisesAGzipCompressedAwsFlowLogByItsContent() throws Exception {
        Path gz = dir.resolve("flows.bin");
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(("version account-id interface-id srcaddr dstaddr srcport dstport protocol packets bytes start "
                    + "end action log-status\n2 1 eni-a 10.2.0.20 10.1.0.10 40112 1521 6 10 5200 1700000000 "
                    + "1700000030 ACCEPT OK\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        List<FlowRecord> read = new ArrayList<>();

        FlowInput.Result r = FlowInput.replay(gz, "audit", read::add);

        assertThat(FlowInput.kind(gz)).isEqualTo(FlowInput.Kind.AWS_FLOW_LOG);
        assertThat(FlowInput.kind(capture)).isEqualTo(FlowInput.Kind.CAPTURE);
        Path ociArray = dir.resolve("oci-search-export.json");
        Files.writeString(ociArray, "[\n  {\"datetime\": 1700000000000,\n   \"logContent\": {\"data\": "
                + "{\"status\": \"NODATA\"}}}\n]\n");
        assertThat(FlowInput.kind(ociArray)).isEqualTo(FlowInput.Kind.OCI_FLOW_LOG);
        assertThat(r.complete()).isTrue();
        assertThat(r.packets()).isEqualTo(10);
        assertThat(read).extracting(FlowRecord::bytes).containsExactly(5200L);
    }

    @Test
    void anAwsFlowLogWithABadRowAndARejectRowIsAuditedWhole() throws Exception {
        Path log = dir.resolve("bad-vpc.log");
        Files.write(log, List.of(
                "version account-id interface-id srcaddr dstaddr srcport dstport protocol packets bytes start end "
                        + "action log-status",
                "2 1 eni-a 10.2.0.20 10.1.0.10 40112 1521 6 10 5200 1700000000 1700000030 ACCEPT OK",
                "2 1 eni-a 10.1.0.10 10.2.0.20 1521 40112 6 10 lots 1700000000 1700000030 ACCEPT OK",
                "2 1 eni-a 10.2.0.20 10.1.0.21 40113 7001 6 5 800 1700000000 1700000030 ACCEPT OK",
                "2 1 eni-a 198.51.100.7 10.2.0.20 55000 22 6 3 180 1700000005 1700000005 REJECT OK"));

        CommandRun run = CommandRun.of("audit", log.toString(), "--sites", sites.toString(), "--format", "json",
                "--server", "wls3");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo(log + ": 1 REJECT rows (180 bytes) left out of the totals\n"
                + log + ":3: bytes: \"lots\" is not a number\n");
        JsonNode wls3 = JSON.readTree(run.out()).get("verdicts").get(0);
        assertThat(wls3.get("server").asText()).isEqualTo("10.2.0.20");
        assertThat(wls3.get("crossBytes").asLong()).isEqualTo(6000);
        assertThat(wls3.get("addresses").get("10.1.0.10").asLong()).isEqualTo(5200);
        assertThat(wls3.get("addresses").get("10.1.0.21").asLong()).isEqualTo(800);
    }

    /** One record as AWS logs it at the client's interface: one row per direction that carried packets. */
    private static List<String> awsRows(FlowRecord r) {
        List<String> rows = new ArrayList<>();
        long start = r.start() / 1000;
        long end = r.end() / 1000;
        if (r.packets() > 0) {
            rows.add(String.join(" ", "2", "123456789012", "eni-edge", r.src(), r.dst(), "" + r.srcPort(),
                    "" + r.dstPort(), "" + r.proto(), "" + r.packets(), "" + r.bytes(), "" + start, "" + end,
                    "ACCEPT", "OK"));
        }
        if (r.rpackets() > 0) {
            rows.add(String.join(" ", "2", "123456789012", "eni-edge", r.dst(), r.src(), "" + r.dstPort(),
                    "" + r.srcPort(), "" + r.proto(), "" + r.rpackets(), "" + r.rbytes(), "" + start, "" + end,
                    "ACCEPT", "OK"));
        }
        return rows;
    }

    private static JsonNode audit(Path input) throws Exception {
        CommandRun run = CommandRun.of("audit", input.toString(), "--sites", sites.toString(), "--format", "json");
        assertThat(run.exitCode()).as(run.err()).isZero();
        return JSON.readTree(run.out());
    }
}
