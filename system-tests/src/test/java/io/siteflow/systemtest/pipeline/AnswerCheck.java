package io.siteflow.systemtest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.systemtest.pipeline.VerdictPoller.Sample;
import io.siteflow.model.FlowRecord;
import io.siteflow.synth.SyntheticCluster;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What "never a wrong number" means for the answers a {@link VerdictPoller} kept. A server's records reach its
 * task in the order they were sent (one producer, keyed by the server), so every state its aggregate can be in
 * holds a prefix of them: a right answer is a prefix sum of their cross-site bytes ({@code bytes + rbytes}),
 * never a number they never summed to (the empty aggregate of a store without the key, a mix). Answers go back
 * only once, after the kill, for a server the killed instance owned: to the last state it had committed (what it
 * processed but had not committed is processed again). A 503 must say why: its owner is moving.
 */
final class AnswerCheck {
    private final Map<String, Map<Long, Integer>> prefixes = new HashMap<>();
    private final Map<String, Long> totals = new HashMap<>();
    private final long killedAt;
    private final Collection<String> moved;

    /** @param moved the servers whose owner was killed at {@code killedAt} */
    AnswerCheck(List<FlowRecord> records, long killedAt, Collection<String> moved) {
        this.killedAt = killedAt;
        this.moved = moved;
        for (FlowRecord r : records) {
            Map<Long, Integer> p = prefixes.computeIfAbsent(r.src(), s -> new HashMap<>(Map.of(0L, 0)));
            long sum = totals.merge(r.src(), r.bytes() + r.rbytes(), Long::sum);
            p.put(sum, p.size());
        }
    }

    void verify(VerdictPoller poller) {
        for (String server : SyntheticCluster.SERVERS) {
            Map<Long, Integer> prefix = prefixes.get(server);
            List<Sample> samples = poller.samples(server);
            int last = 0;
            int back = 0;
            for (Sample s : samples) {
                if (s.crossBytes() == null) {
                    assertThat(s.reason()).as(server + " at " + s.atMs()).startsWith("owner of ");
                    assertThat(s.reason()).contains(" is moving: ");
                    continue;
                }
                Integer index = prefix.get(s.crossBytes());
                assertThat(index).as(server + " answered " + s.crossBytes() + " at " + s.atMs()
                        + ", which its records never summed to").isNotNull();
                if (index < last) {
                    back++;
                    assertThat(moved).as(server + " went back from " + last + " to " + index + " records").contains(server);
                    assertThat(s.atMs()).as(server + " went back before the kill").isGreaterThan(killedAt);
                }
                last = index;
            }
            assertThat(back).as(server + " went back more than once").isLessThanOrEqualTo(1);
            assertThat(samples).as(server + " answered").isNotEmpty();
            assertThat(samples.get(samples.size() - 1).crossBytes()).as(server + " at the end").isEqualTo(totals.get(server));
            if (moved.contains(server)) {
                assertThat(samples).as(server + ": a 503 while its owner was dead").anyMatch(s -> s.crossBytes() == null);
            }
        }
    }
}
