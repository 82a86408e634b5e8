package io.siteflow.agent.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.synth.Endpoint;
import io.siteflow.synth.Frames;
import io.siteflow.synth.PcapWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code siteflow capture -r} as a user runs it: outputs, the -F filter, exit codes and messages. */
class CaptureCommandTest {
    private static final long T0 = 1_764_000_000_000_000_000L;
    private static final Endpoint WLS3 = Endpoint.of("10.2.0.20", 40112);
    private static final Endpoint DB1 = Endpoint.of("10.1.0.10", 1521);
    private static final Endpoint WLS4 = Endpoint.of("10.2.0.21", 40200);

    @TempDir
    Path dir;

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = AgentMain.commandLine(new CaptureCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    /** wls3 → db1: a handshake, 100 bytes each way, an RST; wls3 → wls4 (same site): one UDP datagram. */
    private Path capture() throws IOException {
        Path file = dir.resolve("small.pcap");
        try (PcapWriter w = PcapWriter.create(file, PcapWriter.Resolution.NANOS, 65535)) {
            w.write(T0, Frames.tcp(WLS3, DB1, 1, new Frames.TcpHeader(1000, 0, Frames.SYN, 64240), new byte[0], 0, 0));
            w.write(T0 + 6_500_000, Frames.tcp(DB1, WLS3, 2, new Frames.TcpHeader(5000, 1001, Frames.SYN | Frames.ACK, 64240),
                    new byte[0], 0, 0));
            w.write(T0 + 6_600_000, Frames.tcp(WLS3, DB1, 3, new Frames.TcpHeader(1001, 5001, Frames.ACK, 64240),
                    new byte[0], 0, 0));
            w.write(T0 + 7_000_000, Frames.tcp(WLS3, DB1, 4, new Frames.TcpHeader(1001, 5001, Frames.PSH | Frames.ACK, 64240),
                    new byte[100], 0, 100));
            w.write(T0 + 14_000_000, Frames.tcp(DB1, WLS3, 5, new Frames.TcpHeader(5001, 1101, Frames.PSH | Frames.ACK, 64240),
                    new byte[100], 0, 100));
            w.write(T0 + 15_000_000, Frames.tcp(WLS3, DB1, 6, new Frames.TcpHeader(1101, 5101, Frames.RST, 0),
                    new byte[0], 0, 0));
            w.write(T0 + 20_000_000, Frames.udp(WLS3, WLS4, 7, new byte[50], 0, 50));
        }
        return file;
    }

    private static List<FlowRecord> records(String jsonLines) throws Exception {
        List<FlowRecord> out = new ArrayList<>();
        for (String line : jsonLines.split("\n")) {
            if (!line.isBlank()) {
                out.add(FlowRecordJson.parse(line));
            }
        }
        return out;
    }

    @Test
    void jsonWritesOneFinalRecordPerFlowWithHandshakeRtt() throws Exception {
        Run r = run("-r", capture().toString(), "--json", "--agent", "wls3");

        assertThat(r.code()).as(r.err()).isZero();
        List<FlowRecord> recs = records(r.out());
        assertThat(recs).hasSize(2);
        FlowRecord db = recs.stream().filter(x -> x.dstPort() == 1521).findFirst().orElseThrow();
        assertThat(db.src()).isEqualTo("10.2.0.20");
        assertThat(db.packets()).isEqualTo(4);
        assertThat(db.rpackets()).isEqualTo(2);
        assertThat(db.bytes()).isEqualTo(4 * 40 + 100);
        assertThat(db.rbytes()).isEqualTo(2 * 40 + 100);
        assertThat(db.frameBytes()).isEqualTo(4 * 54 + 100);
        assertThat(db.rttMicros()).isEqualTo(6_600L);
        assertThat(db.agent()).isEqualTo("wls3");
        assertThat(db.iface()).isEqualTo("small.pcap");
        assertThat(db.isFinal()).isTrue();
        assertThat(r.err()).contains("small.pcap: 7 packets received, 0 dropped by kernel, 0 dropped by interface, 0 dropped by the agent")
                .contains("decoded: 7 IP, 0 not IP, 0 malformed, 0 on unsupported link types");
    }

    @Test
    void remoteSiteFilterKeepsOnlyCrossSitePacketsLikeIftop() throws Exception {
        Run r = run("-r", capture().toString(), "--json", "-F", "10.1.0.0/16");

        assertThat(r.code()).isZero();
        List<FlowRecord> recs = records(r.out());
        assertThat(recs).extracting(FlowRecord::dst).containsExactly("10.1.0.10");
        assertThat(r.err()).contains("kept 6 IP packets (1 outside the -F filter); 1 flows, 0 evicted early");
    }

    @Test
    void sameFileGivesTheSameRecordsOnEveryRun() throws Exception {
        Path f = capture();
        assertThat(run("-r", f.toString(), "--json", "--agent", "a").out())
                .isEqualTo(run("-r", f.toString(), "--json", "--agent", "a").out());
    }

    @Test
    void textReportShowsTheRemoteEndOnTheLeftWithIftopUnits() throws Exception {
        Run r = run("-r", capture().toString(), "--text", "-F", "10.1.0.0/16", "-L", "0");

        assertThat(r.code()).isZero();
        assertThat(r.out()).containsPattern("   1 10\\.1\\.0\\.10 +=> ")
                .containsPattern("     10\\.2\\.0\\.20 +<= ")
                .containsPattern("Cumulative \\(sent/received/total\\): +180B +260B +440B");
    }

    @Test
    void jsonTakesAFileOnlyAfterAnEqualsSign() throws Exception {
        Path out = dir.resolve("flows.jsonl");
        Run r = run("-r", capture().toString(), "--json", out.toString(), "--agent", "a");
        assertThat(r.code()).isEqualTo(64);
        assertThat(r.err()).startsWith("siteflow capture: --json takes a value only after '=' (--json=" + out
                + "), not after a space: '" + out + "' is not an option\n");
        assertThat(out).doesNotExist();
    }

    @Test
    void backendIsAUsageErrorNamingTheOptionWhenUnknownOrWithAFile() throws Exception {
        Run r = run("-i", "eth0", "--json", "--backend", "bpf");
        assertThat(r.code()).isEqualTo(64);
        assertThat(r.err()).startsWith("siteflow capture: --backend bpf: must be pcap, ebpf or auto\n");
        r = run("-r", capture().toString(), "--json", "--backend", "ebpf");
        assertThat(r.code()).isEqualTo(64);
        assertThat(r.err()).startsWith("siteflow capture: --backend ebpf needs -i IFACE (a capture file is read by "
                + "the agent itself)\n");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void jsonNeverTakesTheNextOptionAsItsFile() throws Exception {
        Run r = run("-r", capture().toString(), "--json", "-Xlog:class+load");
        assertThat(r.code()).isEqualTo(64);
        assertThat(r.err()).startsWith("siteflow capture: Unknown option: '-Xlog:class+load'\n");
        assertThat(r.out()).isEmpty();
        assertThat(Path.of("-Xlog:class+load")).doesNotExist();
        assertThat(dir.resolve("-Xlog:class+load")).doesNotExist();
    }

    @Test
    void jsonFollowedByAnOptionWritesToStandardOutput() throws Exception {
        Run r = run("-r", capture().toString(), "--json", "-F", "10.1.0.0/16", "--agent", "a");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(records(r.out())).hasSize(1);
    }

    @Test
    void jsonEqualsFileWritesTheSameLinesAsDocumented() throws Exception {
        Path out = dir.resolve("flows.jsonl");
        Run r = run("-r", capture().toString(), "--json=" + out, "--agent", "a");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Files.readString(out)).isEqualTo(run("-r", capture().toString(), "--json", "--agent", "a").out());
    }

    @Test
    void takesIftopHabitsBytesOrderAndNoOpFlags() throws Exception {
        Run r = run("-r", capture().toString(), "-t", "-n", "-N", "-b", "-B", "-o", "destination", "-F", "10.1.0.0/16");

        assertThat(r.code()).as(r.err()).isZero();
        // the file lasts 20 ms: no 2-second slot has ended, so the rates are 0, in bytes (-B)
        assertThat(r.out()).contains("   1 10.1.0.10                                =>         0B         0B         0B       180B\n"
                .replace("\n", System.lineSeparator()));
    }

    @Test
    void ipv4NetworkAfterMinusGIsAUsageError() {
        Run r = run("-r", "x.pcap", "-G", "10.1.0.0/16");
        assertThat(r.code()).isEqualTo(64);
        assertThat(r.err()).startsWith("siteflow capture: -G 10.1.0.0/16: not an IPv6 network (IPv4 networks go with -F)"
                + System.lineSeparator());
    }

    @Test
    void unknownSortOrderIsAUsageErrorListingTheOrders() {
        Run r = run("-r", "x.pcap", "-o", "rate");
        assertThat(r.code()).isEqualTo(64);
        assertThat(r.err()).startsWith("siteflow capture: -o rate: must be one of 2s, 10s, 40s, source, destination"
                + System.lineSeparator());
    }

    @Test
    void badCidrIsAUsageErrorWithTheIftopMessage() {
        Run r = run("-r", "x.pcap", "-F", "10.1.0.0/33");
        assertThat(r.code()).isEqualTo(64);
        assertThat(r.err()).startsWith("siteflow capture: -F 10.1.0.0/33: prefix length must be 0-32");
    }

    @Test
    void metricsBindThatIsNotAnAddressIsAUsageError() {
        Run r = run("-r", "x.pcap", "--metrics-port", "9464", "--metrics-bind", "agents.example");
        assertThat(r.code()).isEqualTo(64);
        assertThat(r.err()).startsWith("siteflow capture: --metrics-bind \"agents.example\" is not an IPv4 address");
    }

    @Test
    void missingFileIsExitCodeTwo() {
        Run r = run("-r", dir.resolve("missing.pcap").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("siteflow capture: " + dir.resolve("missing.pcap") + ": no such file"
                + System.lineSeparator());
    }

    @Test
    void cutShortFileKeepsTheRecordsReadBeforeTheCutAndExitsTwo() throws Exception {
        Path f = capture();
        byte[] all = Files.readAllBytes(f);
        Path cut = dir.resolve("cut.pcap");
        Files.write(cut, java.util.Arrays.copyOf(all, all.length - 10));

        Run r = run("-r", cut.toString(), "--json");

        assertThat(r.code()).isEqualTo(2);
        assertThat(records(r.out())).hasSize(1);
        assertThat(records(r.out()).get(0).totalPackets()).isEqualTo(6);
        assertThat(r.err()).containsPattern("cut\\.pcap: cut short at byte \\d+: packet record needs");
    }

    @Test
    void unsupportedLinkTypeIsReportedOnceAndExitsTwo() throws Exception {
        Path f = dir.resolve("arcnet.pcap");
        byte[] header = {(byte) 0xd4, (byte) 0xc3, (byte) 0xb2, (byte) 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            (byte) 0xff, (byte) 0xff, 0, 0, (byte) 129, 0, 0, 0};
        byte[] rec = {1, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 1, 2, 3, 4};
        Files.write(f, concat(header, rec, rec));

        Run r = run("-r", f.toString(), "--json");

        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).containsOnlyOnce(
                "arcnet.pcap: link type 129 is not supported (ARCNET_LINUX): its packets are not counted");
    }

    /** Issue 17 defect 0: a capture file dated in the future (its writer's clock was wrong) gives no record. */
    @Test
    void skipsPacketsDatedInTheFutureSaysSoAndExitsTwo() throws Exception {
        Path f = dir.resolve("future.pcap");
        long year2100 = 4_102_444_800_000_000_000L;
        try (PcapWriter w = PcapWriter.create(f, PcapWriter.Resolution.NANOS, 65535)) {
            w.write(T0, Frames.udp(WLS3, DB1, 1, new byte[50], 0, 50));
            w.write(year2100, Frames.udp(WLS4, DB1, 2, new byte[50], 0, 50));
            w.write(year2100 + 1_000_000, Frames.udp(WLS4, DB1, 3, new byte[50], 0, 50));
        }

        Run r = run("-r", f.toString(), "--json");

        assertThat(r.code()).isEqualTo(2);
        assertThat(records(r.out())).extracting(FlowRecord::src).containsExactly("10.2.0.20");
        assertThat(r.err()).containsPattern("(?m)^future\\.pcap: 2 packets dated more than 5 min ahead of this "
                + "host's clock were skipped \\(the first at 2100-01-01T00:00:00Z, \\d+ s ahead of \\S+Z\\): the "
                + "capture's clock is wrong$");
    }

    @Test
    void helpExplainsEveryOption() {
        Run r = run("--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).containsPattern("-F +CIDR +A remote-site network").containsPattern("-i +IFACE +Capture live")
                .contains("--json[=FILE]", "--bootstrap HOST:PORT", "--snaplen BYTES", "--metrics-port PORT", "--metrics-bind ADDRESS",
                        "--spool-dir DIR", "--kafka-config FILE", "Exit codes:", "64   wrong usage")
                .contains("(-i IFACE | -r FILE)").doesNotContain("-i=IFACE")
                .containsPattern("-o +ORDER +Sort the report by the 2s, 10s or 40s column")
                .containsPattern("-B +Report rates in bytes per second").containsPattern("-G +CIDR6 +An IPv6 remote-site network")
                .containsPattern("-N +No port-to-service names").containsPattern("-b +No bar graph")
                .contains("report (--text, the default when no other output is asked for)");
        assertThat(r.out().replaceAll("\\s+", " ")).contains("-t, --text Print the iftop -t report at the end (and on "
                + "Ctrl-C): the default output when neither --json nor --bootstrap is given; with them, add --text")
                .contains("--snaplen BYTES Live: bytes captured per packet (headers plus the first payload bytes for "
                        + "protocol signatures), 64-262144. Default: 256.")
                .contains("--buffer-mb MB Live: kernel capture buffer in MiB, 1-2047. Default: 64.")
                .contains("--backend pcap|ebpf|auto Live: pcap reads every packet from the kernel's ring and "
                        + "aggregates flows in the agent; ebpf attaches a TC program to IFACE (ingress and egress) that "
                        + "aggregates flows in the kernel")
                .contains("needs root or CAP_BPF + CAP_PERFMON + CAP_NET_ADMIN, Linux 5.12, libbpf1, an Ethernet "
                        + "interface;")
                .contains("see capture-agent/docs/ebpf.md); auto takes ebpf where it can run, else pcap (also for "
                        + "--text and --workers above 1), and says which and why when it starts. Default: auto.");
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int o = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, o, p.length);
            o += p.length;
        }
        return out;
    }
}
