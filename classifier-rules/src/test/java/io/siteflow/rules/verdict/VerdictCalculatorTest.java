package io.siteflow.rules.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class VerdictCalculatorTest {
    private static final BigDecimal T90 = new BigDecimal("0.90");

    @Test
    void exactlyTheThresholdPasses() {
        assertThat(VerdictCalculator.outcome(900_000, 1_000_000, T90, 1_000_000, false)).isEqualTo(Outcome.PASS);
        assertThat(VerdictCalculator.share(900_000, 1_000_000)).isEqualByComparingTo("0.9000");
        assertThat(VerdictCalculator.share(900_000, 1_000_000).scale()).isEqualTo(4);
    }

    @Test
    void oneByteBelowTheThresholdFails() {
        assertThat(VerdictCalculator.outcome(899_999, 1_000_000, T90, 1_000_000, false)).isEqualTo(Outcome.FAIL);
        assertThat(VerdictCalculator.share(899_999, 1_000_000)).isEqualTo(new BigDecimal("0.8999"));
    }

    @Test
    void comparesExactlyWhereDoubleArithmeticWouldNot() {
        // 0.07 * 100 is 7.000000000000001 in double: a naive comparison would FAIL a share of exactly 7%
        assertThat(0.07 * 100 > 7).isTrue();
        assertThat(VerdictCalculator.outcome(7, 100, new BigDecimal("0.07"), 0, false)).isEqualTo(Outcome.PASS);
        assertThat(VerdictCalculator.outcome(14, 100, new BigDecimal("0.14"), 0, false)).isEqualTo(Outcome.PASS);
        assertThat(VerdictCalculator.outcome(18_955_395, 21_061_550, T90, 0, false)).isEqualTo(Outcome.PASS);
        assertThat(VerdictCalculator.outcome(18_955_394, 21_061_550, T90, 0, false)).isEqualTo(Outcome.FAIL);
    }

    @Test
    void tooLittleCrossTrafficIsInsufficient() {
        assertThat(VerdictCalculator.outcome(999_999, 999_999, T90, 1_000_000, false)).isEqualTo(Outcome.INSUFFICIENT);
        assertThat(VerdictCalculator.outcome(1_000_000, 1_000_000, T90, 1_000_000, false)).isEqualTo(Outcome.PASS);
        assertThat(VerdictCalculator.outcome(0, 0, T90, 0, false)).isEqualTo(Outcome.INSUFFICIENT);
    }

    @Test
    void observerDropsAboveOneInAThousandMakeItInsufficient() {
        assertThat(VerdictCalculator.dropsAboveLimit(999, 1)).isFalse();
        assertThat(VerdictCalculator.dropsAboveLimit(998, 2)).isTrue();
        assertThat(VerdictCalculator.dropsAboveLimit(0, 0)).isFalse();
        assertThat(VerdictCalculator.outcome(1_000_000, 1_000_000, T90, 0, true)).isEqualTo(Outcome.INSUFFICIENT);
    }

    @Test
    void writesPercentagesWithoutTrailingZeros() {
        assertThat(VerdictCalculator.percent(new BigDecimal("0.9296"))).isEqualTo("92.96%");
        assertThat(VerdictCalculator.percent(new BigDecimal("0.9"))).isEqualTo("90%");
    }
}
