package io.siteflow.processor.topology;

import static io.siteflow.processor.topology.Flows.T0;
import static io.siteflow.processor.topology.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bad record on siteflow.sites never stops the processor: the last good model stays, and it says so. */
class SiteModelRejectionTest {
    static final String HUGE_THRESHOLD = Flows.SITES_YAML.replace("threshold: 0.90", "threshold: 0.9e-300000000");
    @TempDir
    Path dir;
    Driver d;

    @BeforeEach
    void start() {
        d = new Driver(dir).withSites(Flows.SITES_YAML);
        d.metrics.siteModel(d.models);
    }

    @AfterEach
    void stop() {
        d.close();
    }

    @Test
    void keepsTheLastGoodModelAndSaysWhyTheNewOneIsNotInForceUntilAGoodOneArrives() {
        String good = d.models.current().orElseThrow().model().version();
        d.send(flow().at(T0).id("r-1").bytes(2000, 0));

        d.withSites(HUGE_THRESHOLD);
        d.send(flow().at(T0 + 1_000).id("r-2").bytes(3000, 0));

        assertThat(d.models.rejection()).hasValue("site model on siteflow.sites rejected (1 error, first: "
                + "sites@siteflow.sites:1:12: threshold: \"0.9e-300000000\" has more than 6 decimal places (a share "
                + "such as 0.95)); keeping " + good);
        assertThat(d.models.current().orElseThrow().model().version()).isEqualTo(good);
        assertThat(d.cumulative("10.2.0.20|region1").crossBytes()).isEqualTo(5000);
        assertThat(gauge()).isEqualTo(1.0);

        d.withSites(Flows.SITES_YAML.replace("threshold: 0.90", "threshold: 0.95"));

        assertThat(d.models.rejection()).isEmpty();
        assertThat(d.models.current().orElseThrow().model().threshold()).isEqualByComparingTo("0.95");
        assertThat(gauge()).isEqualTo(0.0);
    }

    @Test
    void saysSoWhenTheFirstModelIsBad() {
        d.close();
        d = new Driver(dir.resolve("first")).withSites("sites: [");

        assertThat(d.models.rejection()).hasValueSatisfying(r -> assertThat(r)
                .startsWith("site model on siteflow.sites rejected (1 error, first: sites@siteflow.sites:")
                .endsWith("; no model in force"));
        assertThat(d.models.current()).isEmpty();
    }

    private double gauge() {
        return d.metrics.registry().get("siteflow.processor.site.model.rejected").gauge().value();
    }
}
