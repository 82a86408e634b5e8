package io.siteflow.rules.load;

import io.siteflow.rules.model.Match;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Warns about rules that can never match because an earlier rule of the same list matches every flow they
 * would. Built-in rules shadowed by user rules are not reported: overriding them is what user rules are for.
 *
 * <p>Bounded: an earlier rule can only shadow a later one whose condition keys include all of its own (a
 * condition covers only conditions of its kind), which a bit mask per rule checks first; the full comparison runs
 * for at most {@value #MAX_COMPARISONS} pairs. A list that needs more is checked up to the rule where the budget
 * ran out, and one warning there says the rules from it on were not checked (20,000 rules compared pairwise took
 * 38 s).
 */
final class ShadowCheck {
    /** Rule pairs compared in full at most, per model. */
    static final long MAX_COMPARISONS = 2_000_000;

    private ShadowCheck() {
    }

    static void check(List<RuleReader.ReadRule> rules, Reading reading) {
        check(rules, reading, MAX_COMPARISONS);
    }

    static void check(List<RuleReader.ReadRule> rules, Reading reading, long budget) {
        Map<String, Integer> bits = new HashMap<>();
        int[] keys = rules.stream().mapToInt(r -> keyMask(r, bits)).toArray();
        long compared = 0;
        for (int j = 1; j < rules.size(); j++) {
            RuleReader.ReadRule later = rules.get(j);
            for (int i = 0; i < j; i++) {
                if ((keys[i] & ~keys[j]) != 0) {
                    continue; // the earlier rule has a kind of condition the later one lacks
                }
                if (++compared > budget) {
                    reading.warning(later.at(), "this rule and the ones after it were not checked for rules that "
                            + "never match (" + rules.size() + " rules; the check compares at most " + budget
                            + " pairs)");
                    return;
                }
                RuleReader.ReadRule earlier = rules.get(i);
                if (earlier.rule().shadows(later.rule())) {
                    reading.warning(later.at(), "rule " + Reading.quote(later.rule().name()) + " never matches: "
                            + earlier.at().path() + " (" + Reading.quote(earlier.rule().name())
                            + ") matches every flow it would");
                    break;
                }
            }
        }
    }

    /** One bit per kind of condition (key) the rule has. */
    private static int keyMask(RuleReader.ReadRule r, Map<String, Integer> bits) {
        int mask = 0;
        for (Match m : r.rule().matches()) {
            mask |= 1 << bits.computeIfAbsent(m.key(), k -> bits.size());
        }
        return mask;
    }
}
