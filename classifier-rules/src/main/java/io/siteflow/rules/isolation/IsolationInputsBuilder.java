package io.siteflow.rules.isolation;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.observer.ObserverRule;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The offline accumulation of an {@link IsolationInputs} ({@code siteflow isolation check} and {@code propose}):
 * each record is classified with the evaluator's classifier and decided; the edges of every decision (allowed ones
 * too) are summed with {@link IsolationEdge#plus}, an edge's violating and other records apart
 * ({@link IsolationEdge#entryKey}), one observer per edge (the first agent whose record of the edge came; other
 * agents' records of it are not added); the handshake RTT of a record counts for both ends ({@link #rtts}). Not thread-safe: one thread adds, then builds.
 */
public final class IsolationInputsBuilder {
    private final IsolationEvaluator evaluator;
    private final java.util.function.Function<IsolationEdge, String> entry;
    private final Map<String, IsolationEdge> edges = new HashMap<>();
    private final Map<String, String> observers = new HashMap<>();
    private final Map<String, HostRtt> rtts = new HashMap<>();
    private long records;
    private long otherObserver;

    public IsolationInputsBuilder(IsolationEvaluator evaluator) {
        this(evaluator, IsolationEdge::entryKey);
    }

    /**
     * A builder whose entries are an edge's records of one category and detected L7 protocol
     * ({@link IsolationProposal#entryKey}): what a proposal is made from, so that an edge whose flows carried
     * different L7 protocols is proposed without an L7 condition, instead of with its first record's.
     */
    public static IsolationInputsBuilder forProposal(IsolationEvaluator evaluator) {
        return new IsolationInputsBuilder(evaluator, IsolationProposal::entryKey);
    }

    private IsolationInputsBuilder(IsolationEvaluator evaluator, java.util.function.Function<IsolationEdge, String> entry) {
        this.entry = entry;
        this.evaluator = Objects.requireNonNull(evaluator, "evaluator");
    }

    /**
     * Adds one record: its RTTs, and, when the policy judges it, its edge.
     *
     * @throws IllegalArgumentException when an address of the record is not an IP address
     */
    public void add(FlowRecord r) {
        Classification c = evaluator.classifier().classify(r);
        records++;
        for (HostRtt h : rtts(r, c)) {
            rtts.merge(h.key(), h, HostRtt::plus);
        }
        Optional<IsolationDecision> d = evaluator.decide(Classifier.flowOf(r), c);
        if (d.isEmpty()) {
            return;
        }
        String observer = observers.computeIfAbsent(IsolationEdge.key(r.src(), r.dst(), r.dstPort(), r.proto()),
                k -> ObserverRule.observerOf(r));
        if (!observer.equals(ObserverRule.observerOf(r))) {
            otherObserver++;
            return;
        }
        IsolationEdge edge = IsolationEdge.of(r, c, d.get(), evaluator);
        edges.merge(entry.apply(edge), edge, IsolationEdge::plus);
    }

    /** Records added. */
    public long records() {
        return records;
    }

    /** Records not added to their edge because another agent is its observer. */
    public long otherObserverRecords() {
        return otherObserver;
    }

    /**
     * The inputs of the records added so far: edges by entry key, RTT entries by key.
     *
     * @param fromMs     the period's start, epoch ms (inclusive)
     * @param toMs       the period's end, epoch ms (exclusive)
     * @param unverified the observers that could not be trusted in the period (an input not read whole is one)
     */
    public IsolationInputs build(long fromMs, long toMs, List<Unverified> unverified) {
        List<IsolationEdge> e = new ArrayList<>(edges.values());
        e.sort(Comparator.comparing(entry));
        List<HostRtt> r = new ArrayList<>(rtts.values());
        r.sort(Comparator.comparing(HostRtt::key));
        return new IsolationInputs(evaluator, fromMs, toMs, e, unverified, r);
    }

    /**
     * The RTT entries of one record for the {@code MODEL_SUSPECT} check: when it has a handshake RTT and both ends
     * are in a site, one for each end with the other end's site (same-site flows included, whatever the policy's
     * scope); else none. The one rule the offline check and the topology apply.
     */
    public static List<HostRtt> rtts(FlowRecord r, Classification c) {
        if (r.rttMicros() == null || !c.srcSite().isKnown() || !c.dstSite().isKnown()) {
            return List.of();
        }
        long rtt = r.rttMicros();
        return List.of(new HostRtt(r.src(), c.dstSite().name(), 1, rtt),
                new HostRtt(r.dst(), c.srcSite().name(), 1, rtt));
    }
}
