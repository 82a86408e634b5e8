package io.siteflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.synth.Endpoint;
import io.siteflow.synth.PcapWriter;
import io.siteflow.synth.TcpConversation;
import io.siteflow.synth.TimedFrame;
import io.siteflow.synth.TnsPayloads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code siteflow audit} on a synthetic capture taken on wls3's host, with a known RTT to db1 (6.5 ms) and a known
 * database service time (3 ms): the verdict's {@code dbCalls} gives the exact number of calls and a call-time
 * median of RTT + service time within 2%.
 */
class DbCallAuditTest {
    static final long MS = 1_000_000L;
    static final long T0 = 1_764_000_000_000L * MS;
    static final long RTT = 6_500_000;
    static final long SERVICE = 3 * MS;
    static final int CONNECTIONS = 8;
    static final int CALLS_EACH = 60;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static Path capture;
    static Path sites;

    /** {@link #CONNECTIONS} pooled Oracle Net connections wls3 → db1, each with {@link #CALLS_EACH} calls. */
    static void write(Path pcap) throws Exception {
        Random r = new Random(15);
        List<TimedFrame> frames = new ArrayList<>();
        for (int c = 0; c < CONNECTIONS; c++) {
            TcpConversation conn = TcpConversation.between(Endpoint.of("10.2.0.20", 40100 + c),
                    Endpoint.of("10.1.0.10", 1521)).delays(0, RTT / 2).isn(1000L * c, 900_000L * c).build();
            long t = T0 + c * 7 * MS;
            conn.connect(t);
            for (int k = 0; k < CALLS_EACH; k++) {
                conn.exchange(t + (k + 1) * 100 * MS, true, TnsPayloads.data(r, 300 + r.nextInt(600), 3),
                        TnsPayloads.data(r, 2000 + r.nextInt(20_000), 6), SERVICE);
            }
            conn.close(t + (CALLS_EACH + 2) * 100 * MS, true);
            frames.addAll(conn.frames());
        }
        frames.sort(Comparator.comparingLong(TimedFrame::tsNanos));
        try (PcapWriter w = PcapWriter.create(pcap, PcapWriter.Resolution.NANOS, 65535)) {
            for (TimedFrame f : frames) {
                w.write(f.tsNanos(), f.frame());
            }
        }
    }

    @BeforeAll
    static void synthesiseCapture() throws Exception {
        capture = dir.resolve("db-calls.pcap");
        write(capture);
        sites = dir.resolve("sites.yaml");
        Files.copy(Path.of(System.getProperty("siteflow.root", "..")).resolve("deploy/conf/sites.yaml"), sites);
    }

    @Test
    void auditGivesTheExactCallCountAndACallMedianOfRttPlusServiceTime() throws Exception {
        CommandRun run = CommandRun.of("audit", capture.toString(), "--sites", sites.toString(), "--format", "json",
                "--server", "10.2.0.20");

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode d = JSON.readTree(run.out()).get("verdicts").get(0).get("dbCalls");
        assertThat(d.get("calls").asLong()).isEqualTo(CONNECTIONS * CALLS_EACH);
        long expected = (RTT + SERVICE) / 1000;
        assertThat(Math.abs(d.get("callMicros").get("p50").asLong() - expected) / (double) expected)
                .isLessThanOrEqualTo(0.02);
        assertThat(d.get("rttMicros").asLong()).isEqualTo(RTT / 1000);
        assertThat(Math.abs(d.get("serviceMicros").get("p50").asLong() - SERVICE / 1000) / (double) (SERVICE / 1000))
                .isLessThanOrEqualTo(0.05);
        assertThat(d.get("connections").get("max").asLong()).isEqualTo(CONNECTIONS);
        assertThat(d.get("networkShare").decimalValue().doubleValue()).isBetween(0.68, 0.69);
    }

    @Test
    void theStretchedClusterWithAChosenServiceTimeShowsCallsOfRttPlusServiceOnTheRemoteServer() throws Exception {
        Path pcap = dir.resolve("stretched-service.pcap");
        io.siteflow.synth.StretchedClusterScenario.builder().duration(java.time.Duration.ofSeconds(20))
                .capturePoint(io.siteflow.synth.CapturePoint.host("wls3"))
                .dbServiceTime(java.time.Duration.ofMillis(3)).build().write(pcap);

        CommandRun run = CommandRun.of("audit", pcap.toString(), "--sites", sites.toString(), "--format", "json",
                "--server", "10.2.0.20");

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode d = JSON.readTree(run.out()).get("verdicts").get(0).get("dbCalls");
        assertThat(d.get("calls").asLong()).isGreaterThan(100);
        assertThat(Math.abs(d.get("callMicros").get("p50").asLong() - 9_500) / 9_500.0).isLessThanOrEqualTo(0.02);
        assertThat(d.get("rttMicros").asLong()).isEqualTo(6_500);
    }
}
