package io.siteflow.agent.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** iftop's readable_size: expected strings are what iftop 1.0pre4's C code prints for the same values. */
class UnitsTest {
    @Test
    void printsBitsWithIftopsStepsAndDigits() {
        assertThat(Units.rate(124.875, false)).isEqualTo("  999b");
        assertThat(Units.rate(125, false)).isEqualTo(" 0.98Kb");
        assertThat(Units.rate(1279.875, false)).isEqualTo(" 10.00Kb");
        assertThat(Units.rate(12_800, false)).isEqualTo("  100Kb");
        assertThat(Units.rate(1_000_000, false)).isEqualTo(" 7.63Mb");
        assertThat(Units.rate(1e12, false)).isEqualTo(" 7451Gb");
    }

    @Test
    void printsBytesAndRoundsHalfToEvenAsGlibc() {
        assertThat(Units.rate(2.5, true)).isEqualTo("    2B");
        assertThat(Units.rate(3.5, true)).isEqualTo("    4B");
        assertThat(Units.bytes(3_783_402)).isEqualTo(" 3.61MB");
        assertThat(Units.bytes(747)).isEqualTo("  747B");
    }
}
