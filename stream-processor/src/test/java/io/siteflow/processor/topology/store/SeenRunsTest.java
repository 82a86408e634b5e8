package io.siteflow.processor.topology.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SeenRunsTest {

    @ParameterizedTest
    @CsvSource({"wls3-1732900000123-1, 1", "edge-b-0, 0", "r-4096, 4096", "r-999999999999999999, 999999999999999999"})
    void readsTheCounterOfTheAgentsIds(String id, long counter) {
        assertThat(SeenRuns.counter(id, id.lastIndexOf('-'))).isEqualTo(counter);
    }

    @ParameterizedTest
    @CsvSource({"run-01", "run-", "-5", "run5", "run-5x", "run-+5", "run-1000000000000000000", "k-close-10.2.0.20"})
    void refusesOtherIdsSoThatNoTwoIdsShareACounter(String id) {
        assertThat(SeenRuns.counter(id, id.lastIndexOf('-'))).isEqualTo(-1);
    }

    @Test
    void keepsAChunkAsItsBitsAndNewestTime() {
        SeenRuns.Chunk c = new SeenRuns.Chunk(new long[64], 1_764_000_000_000L);
        c.bits[0] = 0b1011;
        c.bits[63] = Long.MIN_VALUE;
        byte[] b = c.toBytes();

        SeenRuns.Chunk back = SeenRuns.Chunk.fromBytes("t", b);

        assertThat(b).hasSize(520);
        assertThat(back.newest).isEqualTo(1_764_000_000_000L);
        assertThat(back.bits).isEqualTo(c.bits);
    }

    @Test
    void refusesAnEntryOfAnotherSize() {
        assertThatThrownBy(() -> SeenRuns.Chunk.fromBytes("app-seen-runs-changelog", new byte[12]))
                .isInstanceOf(SerializationException.class)
                .hasMessage("app-seen-runs-changelog: seen-runs entry of 12 bytes, expected 520");
    }
}
