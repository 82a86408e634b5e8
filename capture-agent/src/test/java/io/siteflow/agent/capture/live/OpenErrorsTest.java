package io.siteflow.agent.capture.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.pcap4j.core.PcapNativeException;

class OpenErrorsTest {

    @Test
    void listsTheInterfacesOfAnUnknownOne() {
        assertThat(OpenErrors.noSuchInterface("eth9", List.of("lo", "ens3", "any")))
                .isEqualTo("no such interface: eth9 (interfaces: lo, ens3, any)");
    }

    @Test
    void saysWhenLibpcapListsNoInterfaces() {
        assertThat(OpenErrors.noSuchInterface("eth9", List.of())).isEqualTo("no such interface: eth9 (libpcap lists none)");
    }

    @Test
    void namesTheMissingCapabilityAndHowToGrantIt() {
        assertThat(OpenErrors.permissionDenied("ens3", "capturing", "CAP_NET_RAW", "/usr/lib/jvm/j17/bin/java"))
                .isEqualTo("ens3: permission denied: capturing needs CAP_NET_RAW (run as root or grant the capability: "
                        + "setcap cap_net_raw,cap_net_admin+eip /usr/lib/jvm/j17/bin/java)");
    }

    @Test
    void findsWhichCapabilityIsMissingFromTheEffectiveSet() {
        assertThat(OpenErrors.missingCapability("\t0000000000000000")).isEqualTo("CAP_NET_RAW");
        assertThat(OpenErrors.missingCapability("0000000000001000")).isEqualTo("CAP_NET_RAW");
        assertThat(OpenErrors.missingCapability("0000000000002000")).isEqualTo("CAP_NET_ADMIN");
        assertThat(OpenErrors.missingCapability("000001ffffffffff")).isEqualTo("CAP_NET_RAW");
        assertThat(OpenErrors.missingCapability("")).isEqualTo("CAP_NET_RAW");
    }

    @Test
    void quotesTheFilterWithLibpcapsReason() {
        PcapNativeException e = new PcapNativeException("Error occurred in pcap_compile: syntax error", -1);
        assertThat(OpenErrors.badFilter("ens3", "net nonsense or", e))
                .hasMessage("ens3: bad BPF filter \"net nonsense or\": syntax error")
                .hasCause(e);
    }

    @Test
    void mapsOtherActivationErrorsWithLibpcapsMessage() {
        assertThat(OpenErrors.forActivate("ens3", new PcapNativeException("ens3: That device is not up", -9)))
                .hasMessage("ens3: interface is down");
        assertThat(OpenErrors.forActivate("ens3", new PcapNativeException("something odd", -1)))
                .hasMessage("ens3: cannot capture: something odd");
    }
}
