package io.siteflow.rules.model;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A classification rule: a flow that satisfies every condition gets the category. Rules are tried in order
 * and the first match wins. A rule without conditions matches every flow. Immutable.
 *
 * @param name     unique name (letters, digits, {@code . _ -})
 * @param category the category given to matching flows
 * @param matches  the conditions, in canonical key order
 * @param origin   where the rule was written, e.g. {@code sites.yaml:14:5} or {@code fmw-defaults.yaml:9:5}
 * @param builtIn  true for a rule of the default rule set
 */
public record Rule(String name, Category category, List<Match> matches, String origin, boolean builtIn) {
    /** Stand-in for "no rule matched"; never part of a model. */
    public static final Rule NONE = new Rule("(none)", Category.UNKNOWN, List.of(), "", false);

    public Rule {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(origin, "origin");
        matches = List.copyOf(matches);
    }

    /** True when every condition holds. */
    public boolean matches(FlowFacts facts) {
        for (Match m : matches) {
            if (!m.matches(facts)) {
                return false;
            }
        }
        return true;
    }

    /**
     * True when every flow {@code later} matches is matched by this rule, so that {@code later}, placed after
     * this rule, can never match. Conservative: false when unsure.
     */
    public boolean shadows(Rule later) {
        for (Match mine : matches) {
            if (!coversOneOf(mine, later.matches)) {
                return false;
            }
        }
        return true;
    }

    /** A loop, not a stream: the shadowing check calls this up to millions of times per model. */
    private static boolean coversOneOf(Match mine, List<Match> theirs) {
        for (Match m : theirs) {
            if (mine.covers(m)) {
                return true;
            }
        }
        return false;
    }

    /** The conditions as {@code key=values} separated by spaces, {@code (any flow)} when there are none. */
    public String conditions() {
        if (matches.isEmpty()) {
            return "(any flow)";
        }
        return matches.stream().map(m -> m.key() + "=" + m.values()).collect(Collectors.joining(" "));
    }

    @Override
    public String toString() {
        return name + " -> " + category + " [" + conditions() + "]";
    }
}
