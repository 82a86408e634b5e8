package io.siteflow.rules.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.rules.model.Category;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TopFlowsTest {

    /** The definition: sum per identity; when over capacity, drop the smallest (ties: the largest identity). */
    private static final class Reference {
        final Map<String, TopFlow> flows = new LinkedHashMap<>();
        final Comparator<TopFlow> largestFirst = Comparator.comparingLong(TopFlow::bytes).reversed()
                .thenComparing(TopFlow::key);

        void add(TopFlow f) {
            flows.merge(f.key(), f, (old, add) -> old.plus(add.bytes()));
            if (flows.size() > TopFlows.CAPACITY) {
                flows.remove(flows.values().stream().min(largestFirst.reversed()).orElseThrow().key());
            }
        }

        List<TopFlow> all() {
            return flows.values().stream().sorted(largestFirst).toList();
        }
    }

    private static TopFlow flow(int srcPort, long bytes) {
        return new TopFlow(6, "10.2.0.20", srcPort, "10.1.0.11", 7001, "", Category.UNKNOWN, "(none)", bytes);
    }

    @Test
    void keepsDropsAndMergesExactlyAsTheDefinitionUnderManyTies() {
        Random random = new Random(18);
        TopFlows t = new TopFlows();
        TopFlows other = new TopFlows();
        Reference ref = new Reference();
        Reference refOther = new Reference();
        for (int i = 0; i < 20_000; i++) {
            TopFlow f = flow(40000 + random.nextInt(300), 100 * (1 + random.nextInt(4))); // few sizes: many ties
            t.add(f);
            ref.add(f);
            if (i % 7 == 0) {
                other.add(f);
                refOther.add(f);
            }
        }
        assertThat(t.all()).isEqualTo(ref.all());
        assertThat(other.all()).isEqualTo(refOther.all());

        t.merge(other);
        refOther.flows.values().forEach(ref::add);

        assertThat(t.all()).isEqualTo(ref.all()).hasSize(TopFlows.CAPACITY);
        assertThat(t.top(3)).isEqualTo(ref.all().subList(0, 3));
    }
}
