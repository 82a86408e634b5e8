package io.siteflow.rules.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.rules.model.RttLimit;
import io.siteflow.rules.model.SiteModel;
import java.math.BigDecimal;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code rttLimitMs} in the site model: read, versioned, the stricter limit in force, bad values named by position. */
class RttLimitMsTest {
    private static final String BASE = """
            sites:
              region1: { cidrs: [10.1.0.0/16] }
            """;

    private static LoadResult parse(String value) {
        return SiteModelLoader.parse("sites.yaml", "rttLimitMs: " + value + "\n" + BASE);
    }

    @Test
    void readsTheLimitAndVersionsTheModelWithIt() throws Exception {
        SiteModel without = SiteModelLoader.parse("sites.yaml", BASE).orThrow();
        SiteModel five = parse("5").orThrow();
        SiteModel fiveAgain = parse("5.000").orThrow();

        assertThat(without.rttLimitMs()).isEmpty();
        assertThat(without.rttLimit()).isEqualTo(RttLimit.ORACLE);
        assertThat(five.rttLimitMs()).isEqualTo(Optional.of(new BigDecimal("5")));
        assertThat(five.rttLimit()).isEqualTo(new RttLimit(5_000, RttLimit.Source.SITE_MODEL, true));
        assertThat(five.version()).isNotEqualTo(without.version()).isEqualTo(fiveAgain.version());
    }

    @Test
    void takesTheStricterOfOraclesLimitAndTheModels() throws Exception {
        assertThat(parse("6.125").orThrow().rttLimit())
                .isEqualTo(new RttLimit(6_125, RttLimit.Source.SITE_MODEL, true));
        assertThat(parse("0.001").orThrow().rttLimit().micros()).isEqualTo(1);
        assertThat(parse("10").orThrow().rttLimit()).isEqualTo(new RttLimit(10_000, RttLimit.Source.ORACLE, true));
        assertThat(parse("12").orThrow().rttLimit()).isEqualTo(new RttLimit(10_000, RttLimit.Source.ORACLE, true));
        assertThat(parse("10000").orThrow().rttLimit().source()).isEqualTo(RttLimit.Source.ORACLE);
    }

    @Test
    void saysWhichLimitItIs() throws Exception {
        assertThat(parse("8").orThrow().rttLimit().text()).isEqualTo("the site model's 8 ms limit");
        assertThat(parse("6.25").orThrow().rttLimit().text()).isEqualTo("the site model's 6.25 ms limit");
        assertThat(RttLimit.ORACLE.text()).isEqualTo("Oracle's 10 ms support limit");
        assertThat(RttLimit.ORACLE.exceededBy(10_000)).isFalse();
        assertThat(RttLimit.ORACLE.exceededBy(10_001)).isTrue();
    }

    @Test
    void namesABadLimitByFileLineColumnAndKey() {
        String range = " is not an RTT limit (ms, more than 0 and at most 10000)";
        assertThat(parse("0").diagnostics()).extracting(Object::toString)
                .containsExactly("sites.yaml:1:13: rttLimitMs: \"0\"" + range);
        assertThat(parse("-2").diagnostics()).extracting(Object::toString)
                .containsExactly("sites.yaml:1:13: rttLimitMs: \"-2\"" + range);
        assertThat(parse("10001").diagnostics()).extracting(Object::toString)
                .containsExactly("sites.yaml:1:13: rttLimitMs: \"10001\"" + range);
        assertThat(parse("fast").diagnostics()).extracting(Object::toString)
                .containsExactly("sites.yaml:1:13: rttLimitMs: \"fast\"" + range);
        assertThat(parse("\"5\"").diagnostics()).extracting(Object::toString)
                .containsExactly("sites.yaml:1:13: rttLimitMs: \"5\"" + range);
        assertThat(parse("6.5001").diagnostics()).extracting(Object::toString)
                .containsExactly("sites.yaml:1:13: rttLimitMs: \"6.5001\" has more than 3 decimal places"
                        + " (ms to the µs, such as 6.5)");
        assertThat(parse("0").model()).isEmpty();
    }
}
