package io.siteflow.rules.verdict;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The largest flows by bytes, summed per flow identity, keeping at most {@value #CAPACITY} candidates: when
 * full, the smallest is dropped. Exact while a pair has no more distinct flows than that, approximate beyond
 * (a dropped flow that grows later restarts from its new bytes). Mergeable; not thread-safe.
 */
public final class TopFlows {
    static final int CAPACITY = 64;
    /** How many flows a verdict reports. */
    public static final int REPORTED = 10;

    private static final Comparator<TopFlow> LARGEST_FIRST =
            Comparator.comparingLong(TopFlow::bytes).reversed().thenComparing(TopFlow::key);

    private final Map<String, TopFlow> flows = new LinkedHashMap<>();

    public void add(TopFlow f) {
        flows.merge(f.key(), f, (old, add) -> old.plus(add.bytes()));
        if (flows.size() > CAPACITY) {
            TopFlow smallest = flows.values().stream().min(LARGEST_FIRST.reversed()).orElseThrow();
            flows.remove(smallest.key());
        }
    }

    public void merge(TopFlows other) {
        other.flows.values().forEach(this::add);
    }

    /** The largest {@code n} flows, largest first (ties by flow identity). */
    public List<TopFlow> top(int n) {
        List<TopFlow> all = new ArrayList<>(flows.values());
        all.sort(LARGEST_FIRST);
        return List.copyOf(all.subList(0, Math.min(n, all.size())));
    }

    /** All candidates, largest first. */
    public List<TopFlow> all() {
        return top(Integer.MAX_VALUE);
    }
}
