package io.siteflow.processor.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.rules.verdict.RttSummary;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class LinkRateHistoryTest {
    static final RttSummary NO_RTT = new RttSummary(0, 0, 0, 0);
    final AtomicLong clock = new AtomicLong(1_764_000_000_000L);
    final AtomicReference<Supplier<List<LinkView>>> links = new AtomicReference<>();
    final LinkRateHistory history = new LinkRateHistory(() -> links.get().get(), clock::get);

    static LinkView link(String a, String b, double aToB, double bToA) {
        return new LinkView(a, b, aToB, bToA, NO_RTT, 10_000, null, false, 1000);
    }

    void sampleAt(long t, LinkView... now) {
        clock.set(t);
        links.set(() -> List.of(now));
        history.sample();
    }

    @Test
    void keepsEachLinksRatesOldestFirst() {
        long t0 = clock.get();
        sampleAt(t0, link("region1", "region2", 100, 10), link("region1", "region3", 5, 6));
        sampleAt(t0 + 10_000, link("region1", "region2", 200, 20));

        assertThat(ApiJson.write(history.history())).isEqualTo("[{\"siteA\":\"region1\",\"siteB\":\"region2\","
                + "\"points\":[[1764000000000,100.0,10.0],[1764000010000,200.0,20.0]]},"
                + "{\"siteA\":\"region1\",\"siteB\":\"region3\",\"points\":[[1764000000000,5.0,6.0]]}]");
    }

    @Test
    void forgetsSamplesOlderThanAnHourAndLinksWithoutOne() {
        long t0 = clock.get();
        sampleAt(t0, link("region1", "region2", 100, 10), link("region1", "region3", 5, 6));
        sampleAt(t0 + 3_600_000, link("region1", "region2", 200, 20));
        assertThat(history.history()).hasSize(2);

        sampleAt(t0 + 3_600_001, link("region1", "region2", 300, 30));

        assertThat(ApiJson.write(history.history())).isEqualTo("[{\"siteA\":\"region1\",\"siteB\":\"region2\","
                + "\"points\":[[1764003600000,200.0,20.0],[1764003600001,300.0,30.0]]}]");
    }

    @Test
    void aSampleTheQueriesCannotGiveIsAGapNotAZero() {
        long t0 = clock.get();
        sampleAt(t0, link("region1", "region2", 100, 10));
        clock.set(t0 + 10_000);
        links.set(() -> {
            throw new IllegalStateException("state stores not queryable yet");
        });
        history.sample();
        sampleAt(t0 + 20_000, link("region1", "region2", 300, 30));

        assertThat(ApiJson.write(history.history())).isEqualTo("[{\"siteA\":\"region1\",\"siteB\":\"region2\","
                + "\"points\":[[1764000000000,100.0,10.0],[1764000020000,300.0,30.0]]}]");
    }
}
