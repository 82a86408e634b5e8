package io.siteflow.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.synth.CoherencePayloads;
import io.siteflow.synth.T3Payloads;
import io.siteflow.synth.TnsPayloads;
import io.siteflow.synth.TrafficCategory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The lab's servers answer each protocol's requests with exactly the size asked (the database after its service
 * time); the clients' call clock; settings are validated.
 */
class LabProtocolsTest {
    private final Random random = new Random(1);

    @Test
    void tnsServerAcceptsAConnectAndAnswersADataPacketWithTheAskedSize() throws Exception {
        ByteArrayOutputStream in = new ByteArrayOutputStream();
        in.write(TnsPayloads.connect("10.1.0.10", 1521, "FMWPDB.lab"));
        in.write(Wire.withReplySize(TnsPayloads.data(random, 400, 3), 20_000));
        byte[] out = serve(LabService.TNS, in.toByteArray());
        assertThat(out).hasSize(TnsPayloads.accept().length + 20_000);
        assertThat(out[4]).isEqualTo((byte) 2);
        assertThat(out[TnsPayloads.accept().length + 4]).isEqualTo((byte) 6);
    }

    @Test
    void tnsServerWithAServiceTimeAnswersEachDataPacketNoSoonerButTheConnectAtOnce() throws Exception {
        ByteArrayOutputStream in = new ByteArrayOutputStream();
        in.write(TnsPayloads.connect("10.1.0.10", 1521, "FMWPDB.lab"));
        for (int i = 0; i < 5; i++) {
            in.write(Wire.withReplySize(TnsPayloads.data(random, 400, 3), 100));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> ServerProtocols.tcp(LabService.TNS, 4_000_000).serve(
                new ByteArrayInputStream(in.toByteArray()), out, new Random(2))).isInstanceOf(EOFException.class);
        assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(5 * 4_000_000L);
        assertThat(out.toByteArray()).hasSize(TnsPayloads.accept().length + 5 * 100);
    }

    @Test
    void theCallClockGivesTheCountTheLowerMedianAndTheConnectionsSpan() {
        DbCallClock clock = new DbCallClock();
        clock.opening(1_000_000_000L);
        clock.opening(1_500_000_000L);
        clock.call(0, 9_400_000);
        clock.call(0, 9_600_000);
        clock.call(5_000, 9_505_000);
        clock.call(0, 12_000_000);
        clock.closed(11_000_000_000L);
        clock.closed(10_000_000_000L);

        DbCallTruth t = clock.truth();
        assertThat(t).isEqualTo(new DbCallTruth(4, 9_500, 10_000_000));
        assertThat(t.callsPerSecond()).isEqualTo(0.4);
    }

    @Test
    void t3ServerAnswersTheHandshakeAndEachMessageNamingJmsClasses() throws Exception {
        ByteArrayOutputStream in = new ByteArrayOutputStream();
        in.write(T3Payloads.CLIENT_HELLO);
        in.write(Wire.withReplySize(T3Payloads.message(random, 500, T3Payloads.JMS_CLASSES), 900));
        byte[] out = serve(LabService.JMS_WLS1, in.toByteArray());
        String text = new String(out, StandardCharsets.ISO_8859_1);
        assertThat(out).hasSize(T3Payloads.SERVER_HELLO.length + 900);
        assertThat(text).startsWith("HELO:12.2.1.3.0.false\n").contains("weblogic.jms.client.JMSConnectionFactory");
    }

    @Test
    void tmbServerSendsItsHandshakeThenLengthPrefixedAnswers() throws Exception {
        ByteArrayOutputStream in = new ByteArrayOutputStream();
        in.write(CoherencePayloads.tmbHandshake(random));
        in.write(Wire.withReplySize(CoherencePayloads.tmbMessage(random, 300), 128));
        byte[] out = serve(LabService.TMB, in.toByteArray());
        assertThat(out).hasSize(CoherencePayloads.TMB_HANDSHAKE + 128);
        assertThat(out).startsWith(0x5A, 0xC1, 0xE0, 0x00);
        assertThat(Wire.readInt(new ByteArrayInputStream(out, 64, 4))).isEqualTo(124);
    }

    @Test
    void httpServerAnswersWithTheAskedContentLength() throws Exception {
        byte[] request = "GET /management/weblogic/latest/domainRuntime?size=3000 HTTP/1.1\r\nHost: admin1\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII);
        String out = new String(serve(LabService.ADMIN_HTTP, request), StandardCharsets.US_ASCII);
        assertThat(out).startsWith("HTTP/1.1 200 OK\r\n").contains("Content-Length: 3000\r\n");
        assertThat(out.substring(out.indexOf("\r\n\r\n") + 4)).hasSize(3000).startsWith("{\"items\":[").endsWith("]}");
    }

    @Test
    void categoriesFollowTheServerPort() {
        assertThat(LabService.categoryOf(1521)).isEqualTo(TrafficCategory.DB);
        assertThat(LabService.categoryOf(8011)).isEqualTo(TrafficCategory.JMS);
        assertThat(LabService.categoryOf(7574)).isEqualTo(TrafficCategory.COHERENCE);
        assertThat(LabService.categoryOf(9002)).isEqualTo(TrafficCategory.ADMIN);
        assertThat(LabService.categoryOf(12345)).isEqualTo(TrafficCategory.OTHER);
    }

    @Test
    void rejectsSharesOutsideZeroToOneAndUnknownHosts() {
        assertThatThrownBy(() -> RunSpec.of(Duration.ofSeconds(10), 1.0))
                .hasMessage("DB share of wls3 is 1.0: must be between 0 and 1");
        assertThatThrownBy(() -> RunSpec.of(Duration.ofSeconds(10), 0.9).withShare("wls9", 0.8))
                .hasMessage("unknown lab host \"wls9\" (hosts: wls3, wls4, db1, admin1, dns1, wls1, wls2)");
        assertThatThrownBy(() -> RunSpec.of(Duration.ZERO, 0.9)).hasMessage("run duration 0 s: 1 s to 24 h");
        assertThatThrownBy(() -> RunSpec.of(Duration.ofSeconds(10), 0.9).withDbServiceTime(Duration.ofMillis(-1)))
                .hasMessage("DB service time -1 ms: 0 to 1 s");
        assertThatThrownBy(() -> RunSpec.of(Duration.ofSeconds(10), 0.9).withDbServiceTime(Duration.ofMillis(1001)))
                .hasMessage("DB service time 1001 ms: 0 to 1 s");
        assertThat(RunSpec.of(Duration.ofSeconds(10), 0.93).withShare("wls4", 0.8).shares())
                .containsEntry("10.2.0.20", 0.93).containsEntry("10.2.0.21", 0.8);
    }

    @Test
    void rejectsPrefixesThatMakeBadNamespaceNames() {
        assertThatThrownBy(() -> new LabTopology("Lab-1"))
                .hasMessage("lab prefix \"Lab-1\": 1-12 lower-case letters and digits, starting with a letter");
        assertThat(new LabTopology("sflab").router()).isEqualTo("sflab-rt");
    }

    private static byte[] serve(LabService s, byte[] input) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThatThrownBy(() -> ServerProtocols.tcp(s).serve(new ByteArrayInputStream(input), out, new Random(2)))
                .isInstanceOf(EOFException.class);
        return out.toByteArray();
    }
}
