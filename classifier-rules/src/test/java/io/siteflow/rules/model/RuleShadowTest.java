package io.siteflow.rules.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.Cidr;
import io.siteflow.model.L7Protocol;
import java.util.List;
import org.junit.jupiter.api.Test;

class RuleShadowTest {

    private static Rule rule(Match... matches) {
        return new Rule("r", Category.OTHER, List.of(matches), "t.yaml:1:1", false);
    }

    private static PortMatch ports(int lo, int hi) {
        return new PortMatch(List.of(new PortRange(lo, hi)));
    }

    @Test
    void aWiderPortRangeShadowsANarrowerRuleWithMoreConditions() {
        Rule wide = rule(ports(1500, 1600));
        Rule narrow = rule(ports(1521, 1522), new ProtoMatch(List.of(Protocols.TCP)));

        assertThat(wide.shadows(narrow)).isTrue();
        assertThat(narrow.shadows(wide)).isFalse();
    }

    @Test
    void portRangesMustBeCoveredWhole() {
        assertThat(new PortMatch(List.of(new PortRange(1, 10), new PortRange(11, 20))).covers(ports(5, 15))).isTrue();
        assertThat(new PortMatch(List.of(new PortRange(1, 10), new PortRange(12, 20))).covers(ports(5, 15))).isFalse();
    }

    @Test
    void aNetworkCoversTheNetworksInsideIt() {
        CidrMatch outer = new CidrMatch(List.of(Cidr.parse("10.1.0.0/16")));

        assertThat(outer.covers(new CidrMatch(List.of(Cidr.parse("10.1.5.0/24"))))).isTrue();
        assertThat(outer.covers(new CidrMatch(List.of(Cidr.parse("10.0.0.0/8"))))).isFalse();
        assertThat(outer.covers(new CidrMatch(List.of(Cidr.parse("fd00::/64"))))).isFalse();
    }

    @Test
    void aRuleWithoutConditionsShadowsEverythingAfterIt() {
        assertThat(rule().shadows(rule(new L7Match(List.of(L7Protocol.HTTP))))).isTrue();
    }

    @Test
    void aConditionTheLaterRuleLacksMeansNoShadow() {
        Rule l7 = rule(new L7Match(List.of(L7Protocol.ORACLE_TNS)));
        Rule port = rule(ports(1521, 1521));

        assertThat(l7.shadows(port)).isFalse();
        assertThat(port.shadows(l7)).isFalse();
    }
}
