package io.siteflow.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.agent.signature.SignatureDetector;
import io.siteflow.agent.signature.SignatureState;
import io.siteflow.model.L7Protocol;
import io.siteflow.synth.T3Payloads;
import io.siteflow.synth.TnsPayloads;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The isolation lab's servers: the database port answers T3 to a client that opens with the T3 handshake and TNS
 * otherwise; the SSH-like server; SSH-like packets match no signature of the agent, even seen mid-connection.
 */
class IsolationProtocolsTest {
    private final Random random = new Random(25);

    @Test
    void databasePortAnswersTheT3HandshakeAsAT3Server() throws Exception {
        ByteArrayOutputStream in = new ByteArrayOutputStream();
        in.write(T3Payloads.CLIENT_HELLO);
        in.write(Wire.withReplySize(T3Payloads.message(random, 300, T3Payloads.CLUSTER_CLASSES), 700));
        byte[] out = serve(ServerProtocols.tnsOrT3(), in.toByteArray());
        assertThat(out).hasSize(T3Payloads.SERVER_HELLO.length + 700);
        assertThat(new String(out, StandardCharsets.ISO_8859_1)).startsWith("HELO:12.2.1.3.0.false\n")
                .contains("weblogic.rjvm.ClassTableEntry");
    }

    @Test
    void databasePortAnswersTnsToAnythingElse() throws Exception {
        ByteArrayOutputStream in = new ByteArrayOutputStream();
        in.write(TnsPayloads.connect("10.1.0.10", 1521, "FMWPDB.lab"));
        in.write(Wire.withReplySize(TnsPayloads.data(random, 400, 3), 5_000));
        byte[] out = serve(ServerProtocols.tnsOrT3(), in.toByteArray());
        assertThat(out).hasSize(TnsPayloads.accept().length + 5_000);
        assertThat(out[4]).isEqualTo((byte) 2);
    }

    @Test
    void databasePortClosedBeforeItsFirstByteEndsTheConnection() {
        assertThatThrownBy(() -> ServerProtocols.tnsOrT3().serve(new ByteArrayInputStream(new byte[0]),
                new ByteArrayOutputStream(), random)).isInstanceOf(EOFException.class)
                .hasMessage("connection closed before its first byte");
    }

    @Test
    void sshServerSendsItsVersionThenAnswersEachPacketWithTheAskedSize() throws Exception {
        ByteArrayOutputStream in = new ByteArrayOutputStream();
        in.write(SshLike.CLIENT_VERSION);
        in.write(Wire.withReplySize(SshLike.packet(random, 100), 1_000));
        in.write(Wire.withReplySize(SshLike.packet(random, 16), 3));
        byte[] out = serve(ServerProtocols.ssh(), in.toByteArray());
        assertThat(new String(out, 0, SshLike.SERVER_VERSION.length, StandardCharsets.US_ASCII))
                .isEqualTo("SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\r\n");
        assertThat(out).hasSize(SshLike.SERVER_VERSION.length + 1_000 + SshLike.MIN_PACKET);
        assertThat(java.nio.ByteBuffer.wrap(out, SshLike.SERVER_VERSION.length, 4).getInt()).isEqualTo(996);
    }

    @Test
    void sshPacketsAreFramedAsSshAndRejectBadSizes() {
        byte[] p = SshLike.packet(random, 64);
        assertThat(java.nio.ByteBuffer.wrap(p).getInt()).isEqualTo(60);
        assertThat(p[4] & 0xFF).isBetween(16, 255);
        assertThatThrownBy(() -> SshLike.packet(random, 15)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("SSH packet of 15 bytes: 16 to 32768");
    }

    @Test
    void sshPacketsMatchNoSignatureOfTheAgentFromEitherEnd() {
        SignatureDetector detector = new SignatureDetector();
        for (int flow = 0; flow < 2_000; flow++) {
            int state = SignatureState.INITIAL;
            for (int i = 0; i < 2 * SignatureDetector.DEFAULT_MAX_PACKETS; i++) {
                byte[] p = SshLike.packet(random, SshLike.MIN_PACKET + random.nextInt(1_400));
                state = detector.inspect(state, i % 2 == 0, 6, p, 0, Math.min(p.length, 190), p.length);
            }
            assertThat(SignatureState.protocol(state)).as("flow %d", flow).isEqualTo(L7Protocol.UNKNOWN);
        }
    }

    private static byte[] serve(ServerProtocols.TcpHandler handler, byte[] request) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThatThrownBy(() -> handler.serve(new java.io.BufferedInputStream(new ByteArrayInputStream(request)),
                out, new Random(3))).isInstanceOf(EOFException.class);
        return out.toByteArray();
    }
}
