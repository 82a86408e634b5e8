package io.siteflow.synth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PayloadsTest {
    private final Random random = new Random(1);

    private static String hex(byte[] b, int from, int to) {
        return HexFormat.of().formatHex(b, from, to);
    }

    private static String text(byte[] b, int from) {
        return new String(b, from, b.length - from, StandardCharsets.US_ASCII);
    }

    @Test
    void tnsConnectHasHeaderVersionAndDescriptorAtOffset58() {
        byte[] p = TnsPayloads.connect("10.1.0.10", 1521, "svc");

        assertThat(hex(p, 0, 8)).isEqualTo(String.format("%04x", p.length) + "0000" + "01" + "00" + "0000");
        assertThat(hex(p, 8, 10)).isEqualTo("013a");
        assertThat(hex(p, 24, 28)).isEqualTo(String.format("%04x", p.length - 58) + "003a");
        assertThat(text(p, 58)).startsWith("(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=10.1.0.10)(PORT=1521))"
                + "(CONNECT_DATA=(SERVICE_NAME=svc)");
    }

    @Test
    void tnsDataStreamIsSplitIntoSduSizedPacketsOfExactTotalLength() {
        byte[] s = TnsPayloads.data(random, 8192 + 5, 0x03);

        assertThat(s).hasSize(8197);
        int first = (s[0] & 0xFF) << 8 | (s[1] & 0xFF);
        assertThat(first).isEqualTo(8192 + 5 - TnsPayloads.MIN_DATA);
        assertThat(hex(s, 0, 11)).endsWith("0000" + "06" + "00" + "0000" + "0000" + "03");
        assertThat(hex(s, first, first + 11)).isEqualTo("000b" + "0000" + "06" + "00" + "0000" + "0000" + "03");
        assertThatThrownBy(() -> TnsPayloads.data(random, 10, 3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("TNS data stream of 10 bytes: at least 11");
    }

    @Test
    void t3HandshakeAndLengthPrefixedMessageNamingJmsClasses() {
        assertThat(new String(T3Payloads.CLIENT_HELLO, StandardCharsets.US_ASCII))
                .isEqualTo("t3 12.2.1\nAS:255\nHL:19\nMS:10000000\n\n");
        assertThat(new String(T3Payloads.SERVER_HELLO, StandardCharsets.US_ASCII))
                .isEqualTo("HELO:12.2.1.3.0.false\nAS:2048\nHL:19\n\n");

        byte[] m = T3Payloads.message(random, 400, T3Payloads.JMS_CLASSES);

        assertThat(hex(m, 0, 27)).isEqualTo("00000190" + "016501" + "ffffffffffffffff" + "00000069" + "0000ea60" + "aced0005");
        assertThat(text(m, 0)).contains("weblogic.jms.client.JMSConnectionFactory",
                "weblogic.jms.frontend.FEProducerSendRequest", "weblogic.jms.common.TextMessageImpl");
    }

    @Test
    void coherenceTcmpAndTmbStartWithTheirMagic() {
        assertThat(hex(CoherencePayloads.tcmp(random, 100), 0, 4)).isEqualTo("0ddf00d1");
        assertThat(hex(CoherencePayloads.tmbHandshake(random), 0, 4)).isEqualTo("5ac1e000");
        assertThat(hex(CoherencePayloads.tmbMessage(random, 20), 0, 4)).isEqualTo("00000010");
    }

    @Test
    void tlsRecordsAddUpToTheRequestedSize() {
        byte[] hello = TlsPayloads.clientHello(random, 300);
        byte[] data = TlsPayloads.applicationData(random, 16_389 + 100);

        assertThat(hex(hello, 0, 6)).isEqualTo("160301" + "0127" + "01");
        assertThat(data).hasSize(16_489);
        assertThat(hex(data, 0, 5)).isEqualTo("170303" + "4000");
        assertThat(hex(data, 16_389, 16_394)).isEqualTo("170303" + "005f");
    }

    @Test
    void dnsAnswerCarriesTheAddress() {
        byte[] q = DnsPayloads.query(0x1234, "db1.fmw.example.com");
        byte[] a = DnsPayloads.answer(0x1234, "db1.fmw.example.com", new byte[] {10, 1, 0, 10});

        assertThat(hex(q, 0, 12)).isEqualTo("1234" + "0100" + "0001" + "0000" + "0000" + "0000");
        assertThat(a).hasSize(q.length + 16);
        assertThat(hex(a, a.length - 6, a.length)).isEqualTo("0004" + "0a01000a");
    }
}
