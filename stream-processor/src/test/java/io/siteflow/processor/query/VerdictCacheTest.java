package io.siteflow.processor.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.SiteModel;
import io.siteflow.rules.verdict.AuditPairs;
import io.siteflow.rules.verdict.PairAggregate;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.VerdictCalculator;
import io.siteflow.rules.verdict.VerdictJson;
import io.siteflow.rules.verdict.Window;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class VerdictCacheTest {
    static final String YAML = """
            sites:
              region1: { cidrs: [10.1.0.0/16] }
              region2: { cidrs: [10.2.0.0/16] }
            hosts:
              - { address: 10.1.0.10, name: db1, role: db }
              - { address: 10.2.0.20, name: wls3, role: app-server }
            """;

    private static String verdictJson(long windowStart) throws Exception {
        SiteModel m = SiteModelLoader.parse("sites.yaml", YAML).orThrow();
        Verdict v = VerdictCalculator.verdict(m, AuditPairs.of(m).get(0), new PairAggregate(),
                Optional.of(new Window(windowStart, windowStart + 60_000)), false);
        return VerdictJson.toJson(v);
    }

    @Test
    void parsesAStoredVerdictOnceAndServesTheSameObjectAfterwards() throws Exception {
        VerdictCache cache = new VerdictCache(2, Long.MAX_VALUE);
        String json = verdictJson(0);

        Verdict first = cache.verdict(json);

        assertThat(first).isEqualTo(VerdictJson.parse(json));
        assertThat(cache.verdict(new String(json))).isSameAs(first);
        assertThat(VerdictJson.toJson(first)).isEqualTo(json);
    }

    @Test
    void dropsTheLeastRecentlyUsedVerdictBeyondItsCapacity() throws Exception {
        VerdictCache cache = new VerdictCache(2, Long.MAX_VALUE);
        Verdict a = cache.verdict(verdictJson(0));
        Verdict b = cache.verdict(verdictJson(60_000));
        cache.verdict(verdictJson(0));
        cache.verdict(verdictJson(120_000));

        assertThat(cache.size()).isEqualTo(2);
        assertThat(cache.verdict(verdictJson(0))).isSameAs(a);
        assertThat(cache.verdict(verdictJson(60_000))).isNotSameAs(b).isEqualTo(b);
    }

    @Test
    void dropsTheLeastRecentlyUsedVerdictsBeyondItsCharacterBudget() throws Exception {
        String first = verdictJson(0);
        VerdictCache cache = new VerdictCache(100, 2L * verdictJson(120_000).length()); // room for two, not three
        Verdict a = cache.verdict(first);
        cache.verdict(verdictJson(60_000));
        cache.verdict(verdictJson(120_000));

        assertThat(cache.size()).isEqualTo(2);
        assertThat(cache.verdict(first)).isNotSameAs(a).isEqualTo(a);
    }

    @Test
    void refusesATextThatIsNoVerdict() {
        assertThatThrownBy(() -> new VerdictCache(2, Long.MAX_VALUE).verdict("{\"server\":\"10.2.0.20\"}"))
                .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("verdict store: ");
    }
}
