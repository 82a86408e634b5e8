package io.siteflow.agent.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.synth.CoherencePayloads;
import io.siteflow.synth.Conversation;
import io.siteflow.synth.DnsPayloads;
import io.siteflow.synth.Endpoint;
import io.siteflow.synth.PcapWriter;
import io.siteflow.synth.T3Payloads;
import io.siteflow.synth.TcpConversation;
import io.siteflow.synth.TimedFrame;
import io.siteflow.synth.TnsPayloads;
import io.siteflow.synth.UdpExchange;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import picocli.CommandLine;

/**
 * Golden fixtures: small captures in {@code src/test/resources/golden/}, named after the scenario
 * ({@code tns-connect.pcap}), each beside the JSON lines {@code siteflow capture -r F --json --agent golden} writes
 * for it ({@code tns-connect.expected.json}). The agent's output must equal the expected file byte for byte;
 * {@code --agent} is given so that the ids do not depend on the host name.
 *
 * <p>The captures are written by traffic-synth from the scenarios below (fixed seeds), so they are reproducible:
 * {@code mvn -o -pl capture-agent -am test -Dtest=GoldenCaptureTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dsiteflow.golden.regenerate=true} (from the repository root) rewrites both files of every scenario in
 * {@code capture-agent/src/test/resources/golden/} from this code and the agent's current output; review the diff
 * before committing it.
 * Without the switch, the checked-in captures must also be exactly what the scenarios write.
 */
class GoldenCaptureTest {
    private static final Path GOLDEN = Path.of("src", "test", "resources", "golden");
    private static final boolean REGENERATE = Boolean.getBoolean("siteflow.golden.regenerate");
    private static final long T0 = 1_764_000_000_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final Endpoint WLS3 = Endpoint.of("10.2.0.20", 40112);

    /** The scenarios, each a few frames of one protocol between region 2 (wls3) and region 1. */
    enum Scenario {
        TNS_CONNECT("tns-connect", () -> {
            Random r = new Random(1);
            return TcpConversation.between(WLS3, Endpoint.of("10.1.0.10", 1521)).delays(300_000, 2_950_000).build()
                    .connect(T0)
                    .exchange(0, true, TnsPayloads.connect("db1", 1521, "fmw.example"), TnsPayloads.accept(), MS)
                    .exchange(0, true, TnsPayloads.data(r, 400, 3), TnsPayloads.data(r, 2048, 6), 2 * MS)
                    .exchange(0, true, TnsPayloads.data(r, 300, 3), TnsPayloads.data(r, 900, 6), MS)
                    .close(0, true);
        }),
        T3_CLUSTER("t3-cluster", () -> {
            Random r = new Random(2);
            String[] classes = T3Payloads.CLUSTER_CLASSES;
            return TcpConversation.between(Endpoint.of("10.2.0.20", 40300), Endpoint.of("10.1.0.20", 7001))
                    .delays(300_000, 2_950_000).build()
                    .connect(T0)
                    .exchange(0, true, T3Payloads.CLIENT_HELLO, T3Payloads.SERVER_HELLO, MS)
                    .exchange(0, true, T3Payloads.message(r, 900, classes), T3Payloads.message(r, 300, classes), MS)
                    .exchange(0, false, T3Payloads.message(r, 600, classes), T3Payloads.message(r, 200, classes), MS)
                    .close(0, false);
        }),
        COHERENCE_TMB("coherence-tmb", () -> {
            Random r = new Random(3);
            return TcpConversation.between(Endpoint.of("10.2.0.20", 40400), Endpoint.of("10.1.0.20", 7574))
                    .delays(300_000, 2_950_000).build()
                    .connect(T0)
                    .exchange(0, true, CoherencePayloads.tmbHandshake(r), CoherencePayloads.tmbHandshake(r), MS)
                    .exchange(0, true, CoherencePayloads.tmbMessage(r, 700), CoherencePayloads.tmbMessage(r, 120), MS)
                    .exchange(0, false, CoherencePayloads.tmbMessage(r, 1200), new byte[0], 0)
                    .close(0, true);
        }),
        DNS_UDP("dns-udp", () -> new UdpExchange(Endpoint.of("10.2.0.20", 53001), Endpoint.of("10.1.0.2", 53),
                300_000, 2_950_000)
                .requestResponse(T0, DnsPayloads.query(7, "wls1.fmw.example"),
                        DnsPayloads.answer(7, "wls1.fmw.example", new byte[] {10, 1, 0, 20}), 200_000)
                .requestResponse(T0 + 1000 * MS, DnsPayloads.query(8, "db1.fmw.example"),
                        DnsPayloads.answer(8, "db1.fmw.example", new byte[] {10, 1, 0, 10}), 200_000));

        final String name;
        final Supplier<Conversation> conversation;

        Scenario(String name, Supplier<Conversation> conversation) {
            this.name = name;
            this.conversation = conversation;
        }

        /** Writes the scenario's frames, in time order, to a classic pcap (ns, snap length 65535). */
        void write(Path pcap) throws IOException {
            try (PcapWriter w = PcapWriter.create(pcap, PcapWriter.Resolution.NANOS, 65535)) {
                for (TimedFrame f : conversation.get().frames()) {
                    w.write(f.tsNanos(), f.frame());
                }
            }
        }
    }

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void agentWritesTheExpectedRecords(Scenario s) throws IOException {
        Path pcap = GOLDEN.resolve(s.name + ".pcap");
        Path expected = GOLDEN.resolve(s.name + ".expected.json");
        if (REGENERATE) {
            s.write(pcap);
            Files.writeString(expected, capture(pcap));
        }

        assertThat(capture(pcap)).isEqualTo(Files.readString(expected));
    }

    @ParameterizedTest
    @EnumSource(Scenario.class)
    void checkedInCaptureIsWhatTheScenarioWrites(Scenario s) throws IOException {
        Path written = dir.resolve(s.name + ".pcap");
        s.write(written);

        assertThat(Files.mismatch(written, GOLDEN.resolve(s.name + ".pcap")))
                .as("%s.pcap differs from what the scenario writes; regenerate with -Dsiteflow.golden.regenerate=true",
                        s.name)
                .isEqualTo(-1L);
    }

    /** Standard output of {@code siteflow capture -r PCAP --json --agent golden}, which must exit 0. */
    private static String capture(Path pcap) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = AgentMain.commandLine(new CaptureCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute("-r", pcap.toString(), "--json", "--agent", "golden");
        assertThat(code).as(err.toString()).isZero();
        return out.toString();
    }
}
