package io.siteflow.rules.isolation;

import io.siteflow.model.IpAddresses;
import io.siteflow.rules.model.IsolationPolicy;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The auditor's report of a period (docs/RULES.md, "Isolation policy", "The report"): the state of every group pair,
 * the violating edges with their evidence, the addresses whose RTTs contradict the model, the observers that could
 * not be trusted. The same inputs give the same report offline ({@code siteflow isolation check}) and from the
 * topology ({@code /api/isolation}). Immutable.
 *
 * @param policyVersion the policy's version ({@code sha256:...}; {@code none} for a model without a policy)
 * @param modelVersion  the site model's version
 * @param fromMs        the period's start, epoch ms (inclusive)
 * @param toMs          the period's end, epoch ms (exclusive)
 * @param pairs         group × group ({@code unlisted} and the user's groups, {@code any} left out, then
 *                      {@link #NO_GROUP} when a violation has an end in no group), the evaluator's order,
 *                      {@code from} major
 * @param violations    the violating edges, by bytes descending, then by key
 * @param modelSuspects addresses whose handshake RTTs contradict their site ({@link ModelSuspects})
 * @param unverified    the observers that could not be trusted in the period
 */
public record IsolationReport(String policyVersion, String modelVersion, long fromMs, long toMs, List<PairState> pairs,
                              List<IsolationEdge> violations, List<ModelSuspect> modelSuspects,
                              List<Unverified> unverified) {
    /**
     * The matrix's name for the listed hosts that are in no group of the policy: a violation with such an end (an
     * administration host the policy does not name, reached over SSH) has a pair of its own instead of none.
     */
    public static final String NO_GROUP = "(no group)";

    /** Violations by bytes descending, then by edge key. */
    public static final Comparator<IsolationEdge> BY_BYTES = Comparator.comparingLong(IsolationEdge::bytes).reversed()
            .thenComparing(IsolationEdge::key);

    public IsolationReport {
        Objects.requireNonNull(policyVersion, "policyVersion");
        Objects.requireNonNull(modelVersion, "modelVersion");
        pairs = List.copyOf(pairs);
        violations = List.copyOf(violations);
        modelSuspects = List.copyOf(modelSuspects);
        unverified = List.copyOf(unverified);
    }

    /**
     * The report of a period's inputs. A pair is NOT_ISOLATED when a violating edge's client is in {@code from} and
     * its server in {@code to} (its bytes summed into {@code violatingBytes}); else UNVERIFIED when an
     * {@link Unverified} observer covers it (an edge agent, or an address that is not one, covers every pair; a
     * host agent covers the pairs one of whose groups its host is in); else ISOLATED.
     */
    public static IsolationReport of(IsolationInputs inputs) {
        IsolationEvaluator e = inputs.evaluator();
        List<IsolationEdge> violations = byEntry(inputs.edges()).stream().filter(IsolationEdge::violates)
                .sorted(BY_BYTES).toList();
        List<String> groups = new java.util.ArrayList<>(e.allGroupNames().stream()
                .filter(g -> !g.equals(IsolationPolicy.ANY)).toList());
        if (violations.stream().anyMatch(v -> v.fromGroups().isEmpty() || v.toGroups().isEmpty())) {
            groups.add(NO_GROUP);
        }
        Coverage coverage = coverage(e, inputs.unverified());
        List<PairState> pairs = new java.util.ArrayList<>(groups.size() * groups.size());
        for (String from : groups) {
            for (String to : groups) {
                pairs.add(pair(from, to, violations, coverage));
            }
        }
        return new IsolationReport(e.policy().version(), e.classifier().model().version(), inputs.fromMs(),
                inputs.toMs(), pairs, violations, ModelSuspects.of(e.classifier(), inputs.rtts()), inputs.unverified());
    }

    /**
     * The edges folded by {@link IsolationEdge#entryKey} (one violating and one allowed entry per edge), parts in order
     * of first seen so an entry keeps the evidence of its earliest part: inputs already in that form (the offline
     * check's) are unchanged, finer ones (the topology's parts, a proposal's) give the same report.
     */
    static List<IsolationEdge> byEntry(List<IsolationEdge> edges) {
        java.util.Map<String, IsolationEdge> out = new java.util.LinkedHashMap<>();
        edges.stream().sorted(Comparator.comparingLong(IsolationEdge::firstSeenMs))
                .forEach(e -> out.merge(e.entryKey(), e, IsolationEdge::plus));
        return List.copyOf(out.values());
    }

    /** True when at least one pair is NOT_ISOLATED. */
    public boolean violated() {
        return !violations.isEmpty();
    }

    /** The state of a pair, if the report has it. */
    public java.util.Optional<PairState> pair(String from, String to) {
        return pairs.stream().filter(p -> p.from().equals(from) && p.to().equals(to)).findFirst();
    }

    private static PairState pair(String from, String to, List<IsolationEdge> violations, Coverage coverage) {
        long bytes = 0;
        boolean violated = false;
        for (IsolationEdge v : violations) {
            if (in(v.fromGroups(), from) && in(v.toGroups(), to)) {
                violated = true;
                bytes += v.bytes();
            }
        }
        if (violated) {
            return new PairState(from, to, PairState.State.NOT_ISOLATED, bytes);
        }
        return new PairState(from, to, coverage.covers(from, to) ? PairState.State.UNVERIFIED
                : PairState.State.ISOLATED, 0);
    }

    private static boolean in(List<String> groups, String group) {
        return groups.isEmpty() ? group.equals(NO_GROUP) : groups.contains(group);
    }

    /** The groups the untrusted observers cover: every group when one covers all. */
    private record Coverage(boolean all, Set<String> groups) {
        boolean covers(String from, String to) {
            return all || groups.contains(from) || groups.contains(to);
        }
    }

    private static Coverage coverage(IsolationEvaluator e, List<Unverified> unverified) {
        Set<String> groups = new HashSet<>();
        for (Unverified u : unverified) {
            if (u.host().isEmpty()) {
                return new Coverage(true, Set.of());
            }
            long[] a;
            try {
                a = IpAddresses.parse(u.host().get());
            } catch (IllegalArgumentException notAnAddress) {
                return new Coverage(true, Set.of()); // cannot say which pairs: none of them is verified
            }
            groups.addAll(e.groupNames(e.groupsOf(a[0], a[1])));
        }
        groups.remove(IsolationPolicy.ANY);
        return new Coverage(false, groups);
    }
}
