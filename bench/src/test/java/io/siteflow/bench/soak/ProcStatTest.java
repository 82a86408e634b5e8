package io.siteflow.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcStatTest {
    @Test
    void addsUserAndSystemTicksAfterACommandNameWithSpacesAndParentheses() {
        String stat = "4242 (java (soak) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 30 0 12345 0 0";

        assertThat(ProcStat.cpuSecondsOf(stat)).isEqualTo(3.0);
    }

    @Test
    void readsThisProcessAndNothingForAGoneOne() {
        long self = ProcessHandle.current().pid();

        assertThat(ProcStat.rssMiB(self)).isGreaterThan(1);
        assertThat(ProcStat.cpuSeconds(self)).isGreaterThan(0);
        assertThat(ProcStat.rssMiB(Integer.MAX_VALUE)).isNaN();
    }
}
