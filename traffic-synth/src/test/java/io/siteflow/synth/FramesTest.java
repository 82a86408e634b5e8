package io.siteflow.synth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class FramesTest {
    private static final Endpoint CLIENT = Endpoint.of("10.2.0.20", 40112);
    private static final Endpoint SERVER = Endpoint.of("10.1.0.10", 1521);

    @Test
    void buildsATinySynFrameByteForByte() {
        byte[] mssSack = {2, 4, 0x05, (byte) 0xb4, 1, 1, 4, 2};
        byte[] f = Frames.tcp(CLIENT, SERVER, 0x1234, new Frames.TcpHeader(1000, 0, Frames.SYN, 64240, mssSack),
                new byte[0], 0, 0);

        // checksums computed independently (Python struct, RFC 1071)
        assertThat(HexFormat.of().formatHex(f)).isEqualTo(
                "02000a01000a" + "02000a020014" + "0800"
                + "45000030" + "12344000" + "40061474" + "0a020014" + "0a01000a"
                + "9cb005f1" + "000003e8" + "00000000" + "7002faf0" + "cd840000" + "020405b401010402");
        assertThat(Frames.ipBytes(f)).isEqualTo(48);
    }

    @Test
    void udpChecksumCoversPseudoHeaderAndOddPayload() {
        byte[] f = Frames.udp(Endpoint.of("10.2.0.20", 53000), Endpoint.of("10.1.0.10", 53), 1,
                "abc".getBytes(), 0, 3);

        assertThat(f).hasSize(14 + 20 + 8 + 3);
        assertThat(HexFormat.of().formatHex(f, 34, 45)).isEqualTo("cf080035000b5817616263");
    }

    @Test
    void ipv6FrameCarriesPayloadLengthAndNoIpv4Checksum() {
        Endpoint a = Endpoint.of("2001:db8::20", 40000);
        Endpoint b = Endpoint.of("2001:db8:1::10", 7001);
        byte[] f = Frames.tcp(a, b, 0, new Frames.TcpHeader(1, 2, Frames.ACK | Frames.PSH, 1000), new byte[100], 0, 100);

        assertThat(f).hasSize(14 + 40 + 20 + 100);
        assertThat(HexFormat.of().formatHex(f, 12, 22)).isEqualTo("86dd" + "60000000" + "0078" + "0640");
        assertThat(Frames.ipBytes(f)).isEqualTo(160);
    }

    @Test
    void rejectsMixedAddressFamilies() {
        Endpoint v6 = Endpoint.of("2001:db8::1", 1);
        assertThatThrownBy(() -> Frames.udp(CLIENT, v6, 0, new byte[0], 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("10.2.0.20:40112 and [2001:db8:0:0:0:0:0:1]:1 are of different address families");
    }

    @Test
    void rejectsOptionsThatAreNotWholeWords() {
        assertThatThrownBy(() -> new Frames.TcpHeader(0, 0, 0, 0, new byte[3]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("TCP options of 3 bytes: must be a multiple of 4, at most 40");
    }

    @Test
    void endpointRefusesNamesInsteadOfLookingThemUp() {
        assertThatThrownBy(() -> Endpoint.of("db1.example.com", 1521))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("db1.example.com: not a literal IP address");
    }
}
