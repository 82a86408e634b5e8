package io.siteflow.processor.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.processor.query.RulesInfo;
import io.siteflow.rules.model.Site;
import org.junit.jupiter.api.Test;

class SiteDirectoryTest {
    final SiteDirectory dir = SiteDirectory.of(new RulesInfo("v",
            FakeQueries.YAML.replace("isolation:", "  - { address: 10.1.200.1, name: x, role: db }\nisolation:"), 0));

    @Test
    void namesListedHostsAndTheirSites() {
        assertThat(dir.hosts()).hasSize(5);
        assertThat(dir.host("10.1.0.11").orElseThrow().name()).isEqualTo("<script>alert(1)</script>");
        assertThat(dir.siteOf("10.2.3.4").name()).isEqualTo("region2");
        assertThat(dir.minCrossBytes()).isEqualTo(1_000_000L);
    }

    @Test
    void anAddressOutsideEverySiteOrUnparsableIsUnknown() {
        assertThat(dir.siteOf("192.0.2.1")).isEqualTo(Site.UNKNOWN);
        assertThat(dir.siteOf("not an address")).isEqualTo(Site.UNKNOWN);
        assertThat(dir.host("10.9.9.9")).isEmpty();
    }

    @Test
    void aModelThatDoesNotLoadGivesAnEmptyDirectory() {
        SiteDirectory bad = SiteDirectory.of(new RulesInfo("none", "threshold: [", 0));
        assertThat(bad.hosts()).isEmpty();
        assertThat(bad.siteOf("10.1.0.10")).isEqualTo(Site.UNKNOWN);
        assertThat(bad.minCrossBytes()).isEqualTo(1_000_000L);
    }
}
