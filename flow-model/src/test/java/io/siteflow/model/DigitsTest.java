package io.siteflow.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DigitsTest {

    @Test
    void onlyAsciiDigitsAreDigits() {
        assertThat(Digits.ascii("1521")).isTrue();
        assertThat(Digits.ascii("")).isFalse();
        assertThat(Digits.ascii("+1")).isFalse();
        assertThat(Digits.ascii("\u0661\u0665\u0662\u0661")).as("Arabic-Indic 1521").isFalse();
        assertThat(Digits.ascii("\u0967\u096C")).as("Devanagari 16").isFalse();
        assertThat(Integer.parseInt("\u0967\u096C")).as("what parseInt alone would accept").isEqualTo(16);
    }

    @Test
    void aCidrPrefixInOtherDigitsIsRefused() {
        assertThat(Cidr.parse("10.1.0.0/16").toString()).isEqualTo("10.1.0.0/16");
        assertThatThrownBy(() -> Cidr.parse("10.1.0.0/\u0967\u096C")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("10.1.0.0/\u0967\u096C: prefix length must be 0-32");
    }
}
