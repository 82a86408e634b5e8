package io.siteflow.rules.load;

import java.util.List;

/**
 * Warns about rules that can never match because an earlier rule of the same list matches every flow they
 * would. Built-in rules shadowed by user rules are not reported: overriding them is what user rules are for.
 */
final class ShadowCheck {
    private ShadowCheck() {
    }

    static void check(List<RuleReader.ReadRule> rules, Reading reading) {
        for (int j = 1; j < rules.size(); j++) {
            RuleReader.ReadRule later = rules.get(j);
            for (int i = 0; i < j; i++) {
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
}
