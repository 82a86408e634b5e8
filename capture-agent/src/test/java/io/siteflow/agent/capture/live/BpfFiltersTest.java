package io.siteflow.agent.capture.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.model.Cidr;
import java.util.List;
import org.junit.jupiter.api.Test;

class BpfFiltersTest {

    @Test
    void keepsIpOfAnyCidrUntaggedOrTagged() {
        assertThat(BpfFilters.forRemoteCidrs(List.of(Cidr.parse("10.1.0.0/16"), Cidr.parse("192.168.7.9"))))
                .isEqualTo("((ip or ip6) and (net 10.1.0.0/16 or net 192.168.7.9/32))"
                        + " or (vlan and (ip or ip6) and (net 10.1.0.0/16 or net 192.168.7.9/32))");
    }

    @Test
    void writesIpv6CidrsInIpv6Text() {
        assertThat(BpfFilters.forRemoteCidrs(List.of(Cidr.parse("fd00:1::/64"), Cidr.parse("10.2.0.0/15"))))
                .isEqualTo("((ip or ip6) and (net fd00:1::/64 or net 10.2.0.0/15))"
                        + " or (vlan and (ip or ip6) and (net fd00:1::/64 or net 10.2.0.0/15))");
    }

    @Test
    void writesHostBitsClearedAsCidrParsedThem() {
        assertThat(BpfFilters.forRemoteCidrs(List.of(Cidr.parse("10.1.2.3/8"))))
                .isEqualTo("((ip or ip6) and (net 10.0.0.0/8)) or (vlan and (ip or ip6) and (net 10.0.0.0/8))");
    }

    @Test
    void keepsIpv4MappedIpv6CidrsAsIpv6() {
        assertThat(BpfFilters.bpfText(Cidr.parse("::ffff:10.0.0.0/104"))).isEqualTo("::ffff:10.0.0.0/104");
    }

    @Test
    void capturesEverythingWithoutCidrs() {
        assertThat(BpfFilters.forRemoteCidrs(List.of())).isEmpty();
    }

    @Test
    void rejectsNullCidrs() {
        assertThatThrownBy(() -> BpfFilters.forRemoteCidrs(null)).isInstanceOf(NullPointerException.class);
    }
}
