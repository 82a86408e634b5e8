package io.siteflow.rules.model;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code isolation:} block of a site model: which application groups may talk to which (docs/RULES.md,
 * "Isolation policy"). Deny rules are checked first, in order, then allow rules, in order; a flow no rule matches is
 * UNLISTED, a violation under {@code default: deny}. Immutable; built by the site model loader.
 *
 * @param scope         which flows the policy judges
 * @param defaultAction what a flow no rule matches is
 * @param groups        the user's groups in file order (the built-in {@code any} and {@code unlisted} are not listed)
 * @param deny          deny rules in evaluation order
 * @param allow         allow rules in evaluation order
 * @param version       {@code sha256:<hex>} of the block's canonical form (formatting, comments and the order of
 *                      groups and of values inside a condition do not change it; the order of rules does)
 */
public record IsolationPolicy(Scope scope, DefaultAction defaultAction, List<IsolationGroup> groups,
                              List<IsolationRule> deny, List<IsolationRule> allow, String version) {
    /** The group every address is in. */
    public static final String ANY = "any";
    /** The group of an address inside a site that no {@code hosts} entry lists. */
    public static final String UNLISTED = "unlisted";
    /** Groups a policy may define besides the two built-in ones (one bit each in a {@code long}). */
    public static final int MAX_GROUPS = 62;

    public IsolationPolicy {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(defaultAction, "defaultAction");
        Objects.requireNonNull(version, "version");
        groups = List.copyOf(groups);
        deny = List.copyOf(deny);
        allow = List.copyOf(allow);
        if (groups.size() > MAX_GROUPS) {
            throw new IllegalArgumentException(groups.size() + " groups (at most " + MAX_GROUPS + ")");
        }
    }

    /** The user's group of that name. */
    public Optional<IsolationGroup> group(String name) {
        return groups.stream().filter(g -> g.name().equals(name)).findFirst();
    }

    /** The deny or allow rule of that name. */
    public Optional<IsolationRule> rule(String name) {
        return java.util.stream.Stream.concat(deny.stream(), allow.stream()).filter(r -> r.name().equals(name))
                .findFirst();
    }

    /** Which flows the policy judges. */
    public enum Scope {
        /** Flows whose two ends are in two different sites (the default). */
        CROSS_SITE("cross-site"),
        /** Every flow both of whose ends are in a site. */
        ALL("all");

        private final String text;

        Scope(String text) {
            this.text = text;
        }

        /** The name {@code sites.yaml} writes. */
        public String text() {
            return text;
        }

        /** The scope of that name, if any. */
        public static Optional<Scope> parse(String text) {
            for (Scope s : values()) {
                if (s.text.equals(text)) {
                    return Optional.of(s);
                }
            }
            return Optional.empty();
        }
    }

    /** What a flow that no rule matches is. */
    public enum DefaultAction {
        /** It violates the policy (the default). */
        DENY,
        /** It does not: only deny rules make violations. */
        ALLOW;

        /** The name {@code sites.yaml} writes. */
        public String text() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The action of that name, if any. */
        public static Optional<DefaultAction> parse(String text) {
            for (DefaultAction a : values()) {
                if (a.text().equals(text)) {
                    return Optional.of(a);
                }
            }
            return Optional.empty();
        }
    }
}
