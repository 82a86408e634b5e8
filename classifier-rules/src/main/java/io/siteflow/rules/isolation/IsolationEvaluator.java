package io.siteflow.rules.isolation;

import io.siteflow.model.IpAddresses;
import io.siteflow.model.L7Protocol;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.Flow;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.IsolationGroup;
import io.siteflow.rules.model.IsolationPolicy;
import io.siteflow.rules.model.IsolationRule;
import io.siteflow.rules.model.PortRange;
import io.siteflow.rules.model.Site;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Decides flows against a site model's isolation policy (docs/RULES.md, "Isolation policy"): in scope when both ends
 * are in a site (and, for {@code cross-site}, in two different ones); then the first deny rule that matches, else
 * the first allow rule, else UNLISTED. Groups are bits of a {@code long} (bit 0 {@code any}, bit 1
 * {@code unlisted}, then the user's groups in file order), so a rule's {@code from}/{@code to} is one AND.
 * The same class decides for {@code siteflow isolation check}, the topology's isolation stage and the API.
 * Immutable and thread-safe.
 */
public final class IsolationEvaluator {
    private static final long ANY_BIT = 1L;
    private static final long UNLISTED_BIT = 2L;
    /** The policy of a model without an {@code isolation:} block, for proposals. */
    private static final IsolationPolicy EMPTY = new IsolationPolicy(IsolationPolicy.Scope.CROSS_SITE,
            IsolationPolicy.DefaultAction.DENY, List.of(), List.of(), List.of(), "none");

    private final Classifier classifier;
    private final IsolationPolicy policy;
    private final String[] groupNames;
    private final IsolationGroup[] groups;
    private final CompiledRule[] deny;
    private final CompiledRule[] allow;

    /** A rule as masks and arrays. */
    private record CompiledRule(IsolationRule rule, long from, long to, int categories, PortRange[] ports,
                                int[] protos, long l7) {
        boolean matches(long src, long dst, Category category, int port, int proto, L7Protocol detected) {
            if ((from & src) == 0 || (to & dst) == 0) {
                return false;
            }
            if (categories != 0 && (categories & (1 << category.ordinal())) == 0) {
                return false;
            }
            if (ports.length > 0 && !anyContains(ports, port)) {
                return false;
            }
            if (protos.length > 0 && !contains(protos, proto)) {
                return false;
            }
            return l7 == 0 || detected != L7Protocol.UNKNOWN && (l7 & (1L << detected.ordinal())) != 0;
        }
    }

    /**
     * An evaluator of the model's policy.
     *
     * @throws IllegalArgumentException when the model has no isolation policy
     */
    public IsolationEvaluator(Classifier classifier) {
        this(classifier, classifier.model().isolation()
                .orElseThrow(() -> new IllegalArgumentException("the site model has no isolation policy")));
    }

    private IsolationEvaluator(Classifier classifier, IsolationPolicy policy) {
        this.classifier = Objects.requireNonNull(classifier, "classifier");
        this.policy = policy;
        groups = policy.groups().toArray(new IsolationGroup[0]);
        groupNames = new String[groups.length + 2];
        groupNames[0] = IsolationPolicy.ANY;
        groupNames[1] = IsolationPolicy.UNLISTED;
        for (int i = 0; i < groups.length; i++) {
            groupNames[i + 2] = groups[i].name();
        }
        deny = policy.deny().stream().map(this::compile).toArray(CompiledRule[]::new);
        allow = policy.allow().stream().map(this::compile).toArray(CompiledRule[]::new);
    }

    /**
     * The evaluator of the model's policy, or, when the model has none, of an empty policy (cross-site, default
     * deny, no group, no rule: every cross-site flow UNLISTED) — what a proposal is made from.
     */
    public static IsolationEvaluator orEmpty(Classifier classifier) {
        return classifier.model().isolation().isPresent() ? new IsolationEvaluator(classifier)
                : new IsolationEvaluator(classifier, EMPTY);
    }

    /** The evaluator of the model's policy, empty when the model has none. */
    public static Optional<IsolationEvaluator> of(Classifier classifier) {
        return classifier.model().isolation().map(p -> new IsolationEvaluator(classifier));
    }

    public IsolationPolicy policy() {
        return policy;
    }

    public Classifier classifier() {
        return classifier;
    }

    /** True when the policy judges a flow between these sites. */
    public boolean inScope(Site src, Site dst) {
        if (!src.isKnown() || !dst.isKnown()) {
            return false;
        }
        return policy.scope() == IsolationPolicy.Scope.ALL || !src.equals(dst);
    }

    /**
     * The decision on a classified flow, empty when the flow is out of the policy's scope.
     *
     * @param c the flow's classification (its category and both ends' sites)
     */
    public Optional<IsolationDecision> decide(Flow f, Classification c) {
        if (!inScope(c.srcSite(), c.dstSite())) {
            return Optional.empty();
        }
        long src = groupsOf(f.srcHi(), f.srcLo(), c.srcSite());
        long dst = groupsOf(f.dstHi(), f.dstLo(), c.dstSite());
        for (CompiledRule r : deny) {
            if (r.matches(src, dst, c.category(), f.dstPort(), f.proto(), f.l7())) {
                return Optional.of(new IsolationDecision(Decision.DENIED, r.rule().name(), true, src, dst));
            }
        }
        for (CompiledRule r : allow) {
            if (r.matches(src, dst, c.category(), f.dstPort(), f.proto(), f.l7())) {
                return Optional.of(new IsolationDecision(Decision.ALLOWED, r.rule().name(), false, src, dst));
            }
        }
        return Optional.of(new IsolationDecision(Decision.UNLISTED, "",
                policy.defaultAction() == IsolationPolicy.DefaultAction.DENY, src, dst));
    }

    /** The groups of an address, one bit each: {@code any} always, {@code unlisted} when in a site and in no hosts entry. */
    public long groupsOf(long hi, long lo) {
        return groupsOf(hi, lo, classifier.siteOf(hi, lo));
    }

    private long groupsOf(long hi, long lo, Site site) {
        Host host = classifier.hostAt(hi, lo).orElse(null);
        long mask = ANY_BIT;
        if (host == null && site.isKnown()) {
            mask |= UNLISTED_BIT;
        }
        for (int i = 0; i < groups.length; i++) {
            if (groups[i].contains(host, site, hi, lo)) {
                mask |= 1L << (i + 2);
            }
        }
        return mask;
    }

    /** The names of the groups in a mask, {@code any} first, then {@code unlisted}, then the policy's order. */
    public List<String> groupNames(long mask) {
        List<String> out = new ArrayList<>(Long.bitCount(mask));
        for (int i = 0; i < groupNames.length; i++) {
            if ((mask & (1L << i)) != 0) {
                out.add(groupNames[i]);
            }
        }
        return out;
    }

    /** Every group name of the policy: {@code any}, {@code unlisted}, then the user's groups in file order. */
    public List<String> allGroupNames() {
        return List.of(groupNames);
    }

    /**
     * The allow rule the flow fails fewest conditions of (the first of equals), with those conditions; empty when
     * the policy has no allow rule.
     */
    public Optional<NearestAllow> nearestAllow(Flow f, Classification c) {
        List<String> from = groupNames(groupsOf(f.srcHi(), f.srcLo(), c.srcSite()));
        List<String> to = groupNames(groupsOf(f.dstHi(), f.dstLo(), c.dstSite()));
        NearestAllow best = null;
        for (IsolationRule r : policy.allow()) {
            List<String> failed = r.failed(IpAddresses.format(f.srcHi(), f.srcLo()), from,
                    IpAddresses.format(f.dstHi(), f.dstLo()), to, c.category(), f.dstPort(), f.proto(), f.l7());
            if (best == null || failed.size() < best.failed().size()) {
                best = new NearestAllow(r.name(), failed);
            }
        }
        return Optional.ofNullable(best);
    }

    private CompiledRule compile(IsolationRule r) {
        int categories = 0;
        for (Category c : r.categories()) {
            categories |= 1 << c.ordinal();
        }
        long l7 = 0;
        for (L7Protocol p : r.l7()) {
            l7 |= 1L << p.ordinal();
        }
        return new CompiledRule(r, mask(r.from()), mask(r.to()), categories, r.ports().toArray(new PortRange[0]),
                r.protos().stream().mapToInt(Integer::intValue).toArray(), l7);
    }

    private long mask(List<String> names) {
        long m = 0;
        for (String n : names) {
            for (int i = 0; i < groupNames.length; i++) {
                if (groupNames[i].equals(n)) {
                    m |= 1L << i;
                }
            }
        }
        return m;
    }

    private static boolean anyContains(PortRange[] ranges, int port) {
        for (PortRange r : ranges) {
            if (r.contains(port)) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(int[] values, int v) {
        for (int x : values) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }
}
