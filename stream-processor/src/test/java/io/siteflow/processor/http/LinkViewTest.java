package io.siteflow.processor.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.processor.query.RulesInfo;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code /api/links} against the RTT limit in force: Oracle's 10 ms, or the site model's stricter one. */
class LinkViewTest {
    private static String links(String top) {
        SiteDirectory dir = SiteDirectory.of(new RulesInfo("v", top + FakeQueries.YAML, 0));
        return ApiJson.write(LinkView.of(List.of(), List.of(FakeQueries.pass(Optional.empty(), 1)), List.of(), dir));
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
