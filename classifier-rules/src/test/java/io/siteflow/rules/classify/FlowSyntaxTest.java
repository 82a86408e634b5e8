package io.siteflow.rules.classify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.model.IpAddresses;
import io.siteflow.model.L7Protocol;
import io.siteflow.rules.model.Flow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FlowSyntaxTest {

    @Test
    void parsesAnIpv4FlowWithL7() {
        Flow f = FlowSyntax.parse("tcp 10.2.0.20:40112 -> 10.1.0.10:1521 l7=oracle-tns");

        long[] s = IpAddresses.parse("10.2.0.20");
        long[] d = IpAddresses.parse("10.1.0.10");
        assertThat(f).isEqualTo(new Flow(6, s[0], s[1], 40112, d[0], d[1], 1521, L7Protocol.ORACLE_TNS));
        assertThat(f.toString()).isEqualTo("tcp 10.2.0.20:40112 -> 10.1.0.10:1521 l7=oracle-tns");
    }

    @Test
    void parsesBracketedIpv6AndPortlessIcmp() {
        Flow f = FlowSyntax.parse("  udp   [fd00:2::20]:7574  ->  [FD00:1::1]:7574 ");
        Flow icmp = FlowSyntax.parse("1 10.0.0.1 -> 10.0.0.2");

        assertThat(f.toString()).isEqualTo("udp [fd00:2::20]:7574 -> [fd00:1::1]:7574");
        assertThat(icmp.toString()).isEqualTo("icmp 10.0.0.1 -> 10.0.0.2");
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @CsvSource(delimiter = '|', value = {
            "'' | expected \"PROTO SRC:PORT -> DST:PORT [l7=NAME]\", found \"\"",
            "tcp 10.0.0.1:1 10.0.0.2:2 | expected \"PROTO SRC:PORT -> DST:PORT [l7=NAME]\", found \"tcp 10.0.0.1:1 10.0.0.2:2\"",
            "tpc 10.0.0.1:1 -> 10.0.0.2:2 | \"tpc\" is not a protocol (tcp, udp, icmp, icmpv6 or 0-255)",
            "\u0661\u0667 10.0.0.1:1 -> 10.0.0.2:2 | \"\u0661\u0667\" is not a protocol (tcp, udp, icmp, icmpv6 or 0-255)",
            "tcp 10.0.0.1:1 => 10.0.0.2:2 | expected \"->\" after the source, found \"=>\"",
            "tcp 10.0.0.1 -> 10.0.0.2:2 | \"10.0.0.1\" has no port (write ADDRESS:PORT, IPv6 as [ADDRESS]:PORT)",
            "tcp 10.0.0.1:1 -> 10.0.0.2:70001 | \"70001\" is not a port (0-65535)",
            "tcp 10.0.0.1:1 -> 10.0.0.2:\u0661\u0665\u0662\u0661 | \"\u0661\u0665\u0662\u0661\" is not a port (0-65535)",
            "tcp 10.0.0.1:1 -> 10.0.0.256:2 | \"10.0.0.256\" is not an IPv4 address: 256 is above 255",
            "tcp fd00::1:1 -> 10.0.0.2:2 | \"fd00::1:1\" has no port (write ADDRESS:PORT, IPv6 as [ADDRESS]:PORT)",
            "tcp [fd00::1:1 -> 10.0.0.2:2 | \"[fd00::1:1\" has no closing \"]\"",
            "tcp 10.0.0.1:1 -> 10.0.0.2:2 l7=tns | \"tns\" is not an L7 protocol (oracle-tns, t3, t3-jms, giop, coherence-tcmp, coherence-tmb, http, tls, postgresql, mysql)",
            "tcp 10.0.0.1:1 -> 10.0.0.2:2 extra | unexpected \"extra\" (only l7=NAME may follow the destination)",
    })
    void rejectsBadFlowsWithExactMessages(String text, String message) {
        assertThatThrownBy(() -> FlowSyntax.parse(text)).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }
}
