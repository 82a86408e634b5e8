package io.siteflow.processor.topology.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StoreKeysTest {

    @Test
    void writesAndReadsThePairKeyOfTheVerdictsTopic() {
        PairKey k = new PairKey("10.2.0.20", "region1");

        assertThat(k.encoded()).isEqualTo("10.2.0.20|region1");
        assertThat(PairKey.decode("10.2.0.20|region1")).isEqualTo(k);
        assertThat(PairKey.decode("fd00::20|region 1|b").remoteSite()).isEqualTo("region 1|b");
    }

    @Test
    void writesAndReadsTheOpenWindowKeyOfAnIpv6Server() {
        WindowKey k = new WindowKey(new PairKey("fd00::20", "region1"), 1_764_000_000_000L);

        assertThat(k.encode()).isEqualTo("fd00::20|region1|1764000000000");
        assertThat(WindowKey.decode(k.encode())).isEqualTo(k);
    }

    @Test
    void rejectsTextThatIsNoKey() {
        assertThatThrownBy(() -> PairKey.decode("10.2.0.20"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not a pair key (server|remoteSite): 10.2.0.20");
        assertThatThrownBy(() -> new PairKey("10.2.0.20|x", "region1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("server address with '|': 10.2.0.20|x");
    }
}
