package io.siteflow.rules.isolation;

import java.util.List;
import java.util.Objects;

/**
 * What an isolation report of a period is computed from, offline ({@code siteflow isolation check}) or from the
 * topology's stores ({@code /api/isolation}): the same inputs give the same report. Immutable.
 *
 * @param evaluator  the evaluator of the model in force (its policy, groups and site model: what a report names)
 * @param fromMs     the period's start, epoch ms (inclusive)
 * @param toMs       the period's end, epoch ms (exclusive)
 * @param edges      every decided edge of the period, allowed and violating: one entry per edge and violating-ness
 *                   ({@link IsolationEdge#entryKey})
 * @param unverified observers that were silent or dropping in the period
 * @param rtts       handshake RTTs per address and peer site, for the {@code MODEL_SUSPECT} check
 */
public record IsolationInputs(IsolationEvaluator evaluator, long fromMs, long toMs, List<IsolationEdge> edges, List<Unverified> unverified,
                              List<HostRtt> rtts) {
    public IsolationInputs {
        Objects.requireNonNull(evaluator, "evaluator");
        edges = List.copyOf(edges);
        unverified = List.copyOf(unverified);
        rtts = List.copyOf(rtts);
    }
}
