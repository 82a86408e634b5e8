package io.siteflow.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IpAddressesTest {

    @ParameterizedTest
    @CsvSource({"0.0.0.0, 0", "10.1.0.20, 167837716", "255.255.255.255, -1", "010.001.000.020, 167837716",
            "' 192.168.1.2 ', -1062731518"})
    void parsesDottedQuads(String text, int expected) {
        assertThat(IpAddresses.parse(text)).containsExactly(0, IpAddresses.v4Lo(expected));
        assertThat(IpAddresses.format(0, IpAddresses.v4Lo(expected))).isEqualTo(
                text.trim().replaceAll("(^|\\.)0+(\\d)", "$1$2"));
    }

    @ParameterizedTest(name = "[{index}] \"{0}\"")
    @CsvSource(delimiter = '|', value = {
            "10.1.0 | \"10.1.0\" is not an IPv4 address",
            "10.1.0.1.2 | \"10.1.0.1.2\" is not an IPv4 address",
            "10..0.1 | \"10..0.1\" is not an IPv4 address",
            "10.1.0. | \"10.1.0.\" is not an IPv4 address",
            ".10.1.0 | \".10.1.0\" is not an IPv4 address",
            "10.1.0.1000 | \"10.1.0.1000\" is not an IPv4 address",
            "10.1.0.x | \"10.1.0.x\" is not an IPv4 address",
            "10.1.0.+1 | \"10.1.0.+1\" is not an IPv4 address",
            "10.1.0.256 | \"10.1.0.256\" is not an IPv4 address: 256 is above 255",
            "300.1.0.x | \"300.1.0.x\" is not an IPv4 address: 300 is above 255",
            "10.x.0.300 | \"10.x.0.300\" is not an IPv4 address",
            "db1.example | \"db1.example\" is not an IPv4 address",
    })
    void rejectsWhatIsNotADottedQuadWithExactMessages(String text, String message) {
        assertThatThrownBy(() -> IpAddresses.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }
}
