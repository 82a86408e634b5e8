package io.siteflow.rules.whatif;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The flows of one server towards one peer site, for the what-if's {@code becomeLocal}/{@code becomeRemote}: each
 * flow's bytes summed per flow ({@link WhatIfReport.Flow} without its bytes), at most {@code capacity} of them (the
 * largest; when full, the smallest is dropped, as {@code TopFlows} does), and how many distinct flows were added.
 * Exact while there were never more than {@code capacity} distinct flows; beyond, the largest are approximate (a
 * dropped flow that grows later restarts from its new bytes) and the count is a HyperLogLog estimate
 * ({@link DistinctFlows}, about 3% error). Mergeable; not thread-safe.
 */
final class FlowTally {
    /** Smallest first (fewest bytes; among equal bytes the last by text): the order of eviction. */
    private static final Comparator<WhatIfReport.Flow> SMALLEST_FIRST = Comparator
            .comparingLong(WhatIfReport.Flow::bytes).thenComparing(WhatIfReport.Flow::text, Comparator.reverseOrder());
    private final int capacity;
    /** The kept flows' bytes by flow (bytes 0 in the key). */
    private final Map<WhatIfReport.Flow, Long> bytes = new HashMap<>();
    /** The same flows with their bytes, by size, when bounded: the smallest is found in a tree step. */
    private final TreeSet<WhatIfReport.Flow> bySize;
    /** Null while every distinct flow added is kept (the count is exact). */
    private DistinctFlows distinct;

    FlowTally(int capacity) {
        this.capacity = capacity;
        this.bySize = capacity == Integer.MAX_VALUE ? null : new TreeSet<>(SMALLEST_FIRST);
    }

    /** Adds {@code b} bytes to {@code flow} (its own bytes ignored). */
    void add(WhatIfReport.Flow flow, long b) {
        WhatIfReport.Flow key = flow.withBytes(0);
        Long old = bytes.get(key);
        long sum = old == null ? b : old + b;
        bytes.put(key, sum);
        if (bySize == null) {
            return;
        }
        if (old != null) {
            bySize.remove(key.withBytes(old));
        } else if (distinct != null) {
            distinct.add(key);
        }
        bySize.add(key.withBytes(sum));
        if (bytes.size() > capacity) {
            if (distinct == null) { // every distinct flow so far is kept: the estimate starts from them
                distinct = new DistinctFlows();
                bytes.keySet().forEach(distinct::add);
            }
            bytes.remove(bySize.pollFirst().withBytes(0));
        }
    }

    /** Adds every flow and the count of {@code other}. */
    void merge(FlowTally other) {
        if (other.distinct != null) {
            if (distinct == null) {
                distinct = new DistinctFlows();
                bytes.keySet().forEach(distinct::add);
            }
            distinct.merge(other.distinct);
        }
        other.bytes.forEach(this::add);
    }

    /** How many distinct flows were added: exact while none was dropped, else the estimate (at least those kept). */
    long count() {
        return distinct == null ? bytes.size() : Math.max(bytes.size(), distinct.estimate());
    }

    /** The kept flows with their bytes, largest first (then by text). */
    List<WhatIfReport.Flow> largestFirst() {
        List<WhatIfReport.Flow> out = new ArrayList<>(bytes.size());
        bytes.forEach((f, b) -> out.add(f.withBytes(b)));
        out.sort(SMALLEST_FIRST.reversed());
        return out;
    }

    /** The kept flows' bytes by flow (bytes 0 in the key), for the codec. */
    Map<WhatIfReport.Flow, Long> kept() {
        return bytes;
    }

    /** The estimate's registers, null while the count is exact (the codec). */
    DistinctFlows distinct() {
        return distinct;
    }

    /** Orders the flows the codec put into {@link #kept()}. */
    void restoreOrder() {
        if (bySize != null) {
            bySize.clear();
            bytes.forEach((f, b) -> bySize.add(f.withBytes(b)));
        }
    }

    /** Restores the count estimate the codec read. */
    void restore(DistinctFlows d) {
        distinct = d;
    }

    int capacity() {
        return capacity;
    }
}
