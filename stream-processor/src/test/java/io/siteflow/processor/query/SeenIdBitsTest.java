package io.siteflow.processor.query;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SeenIdBitsTest {
    final SeenIdBits seen = new SeenIdBits();

    @Test
    void anIdReadAgainIsNotNewWhateverCameBetween() {
        assertThat(seen.add("wls3-7f3a-0")).isTrue();
        assertThat(seen.add("wls3-7f3a-1")).isTrue();
        assertThat(seen.add("edge-r1-9c01-1")).isTrue();
        assertThat(seen.add("wls3-7f3a-4096")).isTrue();

        assertThat(seen.add("wls3-7f3a-1")).isFalse();
        assertThat(seen.add("edge-r1-9c01-1")).isFalse();
        assertThat(seen.add("wls3-7f3a-4096")).isFalse();
        assertThat(seen.add("wls3-7f3a-0")).isFalse();
        assertThat(seen.add("wls3-7f3b-0")).isTrue(); // another run
    }

    @Test
    void aMillionIdsOfOneRunTakeOneBitEach() {
        for (int i = 0; i < 1_000_000; i++) {
            assertThat(seen.add("wls3-7f3a-" + i)).isTrue();
        }

        assertThat(seen.chunks()).isEqualTo(245); // ceil(10^6 / 4096) chunks of 512 bytes
        assertThat(seen.others()).isZero();
        assertThat(seen.add("wls3-7f3a-999999")).isFalse();
    }

    @Test
    void idsOfOtherFormsAreKeptAsThemselvesSoTwoNeverMeet() {
        // "a-01" is not the counter 1 of run "a" (a leading zero), nor is "a-1x"; "-5" has no run
        assertThat(seen.add("a-1")).isTrue();
        assertThat(seen.add("a-01")).isTrue();
        assertThat(seen.add("a-1x")).isTrue();
        assertThat(seen.add("-5")).isTrue();
        assertThat(seen.add("b5d6f1e2-id-without-counter")).isTrue();

        assertThat(seen.others()).isEqualTo(4);
        assertThat(seen.add("a-01")).isFalse();
        assertThat(seen.add("-5")).isFalse();
    }
}
