package io.siteflow.model.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.siteflow.model.wire.Heartbeat;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Fuzz harnesses for the heartbeat codec ({@link Heartbeat}): reading never throws (it answers empty for what
 * is not a heartbeat), and what it reads, or what the fuzzer builds, writes back to JSON that reads the same.
 * Seeds: {@code src/test/resources/io/siteflow/model/fuzz/HeartbeatFuzzTestInputs/}; docs/FUZZING.md.
 */
class HeartbeatFuzzTest {

    @FuzzTest
    void readsOrAnswersEmpty(byte[] json) {
        Optional<Heartbeat> h = Heartbeat.parse(new String(json, StandardCharsets.UTF_8));
        h.ifPresent(beat -> assertThat(Heartbeat.parse(utf8(beat.toJson()))).hasValue(beat));
    }

    @FuzzTest
    void roundTripsEveryHeartbeat(FuzzedDataProvider in) {
        Heartbeat h = new Heartbeat(in.consumeString(32), in.consumeString(16), in.consumeLong(), in.consumeLong(),
                in.consumeLong(), in.consumeLong(), in.consumeLong(), in.consumeLong(), in.consumeLong(),
                in.consumeLong());
        assertThat(Heartbeat.parse(utf8(h.toJson()))).hasValue(h);
    }

    private static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
