package io.siteflow.rules.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.rules.model.SiteModel;
import java.math.BigDecimal;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code dbCallBudget: {networkShare: S}} in the site model: read, versioned, and bad values named by position. */
class DbCallBudgetTest {
    private static final String BASE = """
            sites:
              region1: { cidrs: [10.1.0.0/16] }
            """;

    @Test
    void readsTheBudgetAndVersionsTheModelWithIt() throws Exception {
        SiteModel without = SiteModelLoader.parse("sites.yaml", BASE).orThrow();
        SiteModel with = SiteModelLoader.parse("sites.yaml", "dbCallBudget: { networkShare: 0.5 }\n" + BASE).orThrow();

        assertThat(without.dbCallBudget()).isEmpty();
        assertThat(with.dbCallBudget()).isEqualTo(Optional.of(new BigDecimal("0.5")));
        assertThat(with.version()).isNotEqualTo(without.version());
    }

    @Test
    void namesABadBudgetByFileLineColumnAndKey() {
        var r = SiteModelLoader.parse("sites.yaml", "dbCallBudget: { networkShare: 1.5 }\n" + BASE);
        var missing = SiteModelLoader.parse("sites.yaml", "dbCallBudget: {}\n" + BASE);

        assertThat(r.diagnostics()).extracting(Object::toString)
                .containsExactly("sites.yaml:1:31: dbCallBudget.networkShare: \"1.5\" is not a share (0..1)");
        assertThat(missing.model()).isEmpty();
        assertThat(missing.diagnostics()).extracting(Object::toString)
                .containsExactly("sites.yaml:1:15: dbCallBudget: missing key \"networkShare\"");
    }
}
