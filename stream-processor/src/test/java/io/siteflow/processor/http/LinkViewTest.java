package io.siteflow.processor.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.processor.query.RulesInfo;
import io.siteflow.rules.verdict.RttHistogram;
import io.siteflow.rules.verdict.SitePair;
import io.siteflow.rules.verdict.SitePairRtts;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code /api/links} against the RTT limit in force: Oracle's 10 ms, or the site model's stricter one. */
class LinkViewTest {
    private static String links(String top) {
        SiteDirectory dir = SiteDirectory.of(new RulesInfo("v", top + FakeQueries.YAML, 0));
        return ApiJson.write(LinkView.of(List.of(), rtts(), dir));
    }

    /** region1-region2: 812 samples, p50 6.5 ms, p95 6.51 ms, max 6.53 ms. */
    static SitePairRtts rtts() {
        RttHistogram h = new RttHistogram();
        for (int i = 0; i < 812; i++) {
            h.add(i < 500 ? 6500 : i < 800 ? 6510 : 6530);
        }
        SitePairRtts rtts = new SitePairRtts();
        rtts.merge(SitePair.of("region2", "region1"), h);
        return rtts;
    }

    @Test
    void flagsALinkAboveTheSiteModelsLimitAndNamesItsSource() {
        assertThat(links("rttLimitMs: 5\n")).isEqualTo("[{\"siteA\":\"region1\",\"siteB\":\"region2\",\"aToBBps\":0.0,"
                + "\"bToABps\":0.0,\"rttMicros\":{\"p50\":6500,\"p95\":6510,\"max\":6530,\"samples\":812},"
                + "\"limitMicros\":5000,\"limitSource\":\"site-model\",\"aboveLimit\":true,\"ageMs\":-1}]");
    }

    @Test
    void namesOraclesLimitWhenTheModelsIsLooserAndLeavesTheSourceOutWithoutTheKey() {
        assertThat(links("rttLimitMs: 20\n")).contains("\"limitMicros\":10000,\"limitSource\":\"oracle\","
                + "\"aboveLimit\":false,");
        assertThat(links("")).isEqualTo("[{\"siteA\":\"region1\",\"siteB\":\"region2\",\"aToBBps\":0.0,"
                + "\"bToABps\":0.0,\"rttMicros\":{\"p50\":6500,\"p95\":6510,\"max\":6530,\"samples\":812},"
                + "\"limitMicros\":10000,\"aboveLimit\":false,\"ageMs\":-1}]");
    }
}
