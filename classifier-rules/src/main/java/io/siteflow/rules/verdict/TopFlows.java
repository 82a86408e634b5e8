package io.siteflow.rules.verdict;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The largest flows by bytes, summed per flow identity, keeping at most {@value #CAPACITY} candidates: when
 * full, the smallest is dropped. Exact while a pair has no more distinct flows than that, approximate beyond
 * (a dropped flow that grows later restarts from its new bytes). Mergeable; not thread-safe.
 */
public final class TopFlows {
    static final int CAPACITY = 64;
    /** How many flows a verdict reports. */
    public static final int REPORTED = 10;

    /** A candidate with its identity, built once. */
    private record Candidate(String key, TopFlow flow) {
    }

    /** Smallest first (fewest bytes; among equal bytes the largest identity): the order of eviction. */
    private static final Comparator<Candidate> SMALLEST_FIRST = Comparator.<Candidate>comparingLong(c -> c.flow.bytes())
            .thenComparing(Candidate::key, Comparator.reverseOrder());

    /** By identity, in the order first added (merging follows it). */
    private final Map<String, Candidate> flows = new LinkedHashMap<>();
    /** The same candidates by size, so that finding the smallest costs a tree step, not a scan of all. */
    private final TreeSet<Candidate> bySize = new TreeSet<>(SMALLEST_FIRST);

    public void add(TopFlow f) {
        String key = f.key();
        Candidate old = flows.get(key);
        Candidate c = new Candidate(key, old == null ? f : old.flow.plus(f.bytes()));
        if (old != null) {
            bySize.remove(old);
        }
        flows.put(key, c);
        bySize.add(c);
        if (flows.size() > CAPACITY) {
            flows.remove(bySize.pollFirst().key);
        }
    }

    public void merge(TopFlows other) {
        other.flows.values().forEach(c -> add(c.flow));
    }

    /** The largest {@code n} flows, largest first (ties by flow identity). */
    public List<TopFlow> top(int n) {
        List<TopFlow> out = new ArrayList<>(Math.min(n, bySize.size()));
        Iterator<Candidate> it = bySize.descendingIterator();
        while (out.size() < n && it.hasNext()) {
            out.add(it.next().flow);
        }
        return List.copyOf(out);
    }

    /** All candidates, largest first. */
    public List<TopFlow> all() {
        return top(Integer.MAX_VALUE);
    }
}
