package io.siteflow.rules.classify;

import io.siteflow.model.IpAddresses;
import io.siteflow.rules.model.Flow;
import io.siteflow.rules.model.FlowFacts;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.Match;
import io.siteflow.rules.model.Rule;
import io.siteflow.rules.model.Site;
import java.util.List;

/**
 * Writes, for {@code siteflow rules explain}, what the site model knows of both ends of a flow, then each rule
 * in order up to the one that matches, with every condition and whether it held. Uses the rules' own
 * {@link Match#matches} (not the compiled bit sets), so it doubles as a cross-check of the fast path.
 */
final class Explainer {
    private final Classifier classifier;

    Explainer(Classifier classifier) {
        this.classifier = classifier;
    }

    String explain(Flow f) {
        FlowFacts facts = classifier.facts(f);
        StringBuilder sb = new StringBuilder();
        sb.append("flow: ").append(f).append('\n');
        sb.append("  initiator ").append(end(f.srcHi(), f.srcLo())).append('\n');
        sb.append("  responder ").append(end(f.dstHi(), f.dstLo())).append('\n');
        List<Rule> rules = classifier.model().rules();
        for (int i = 0; i < rules.size(); i++) {
            Rule r = rules.get(i);
            boolean hit = r.matches(facts);
            sb.append(String.format("rule %d %s -> %s (%s): %s%n", i + 1, r.name(), r.category(), r.origin(),
                    hit ? "MATCH" : "no match"));
            if (r.matches().isEmpty()) {
                sb.append("    no conditions: matches every flow\n");
            }
            for (Match m : r.matches()) {
                sb.append("    ").append(m.matches(facts) ? "yes: " : "no:  ").append(m.explain(facts)).append('\n');
            }
            if (hit) {
                sb.append("result: ").append(r.category()).append(" by rule ").append(r.name()).append('\n');
                return sb.toString();
            }
        }
        sb.append("result: UNKNOWN (no rule matched)\n");
        return sb.toString();
    }

    private String end(long hi, long lo) {
        String addr = IpAddresses.format(hi, lo);
        Site site = classifier.siteOf(hi, lo);
        String where = site.isKnown() ? "site " + site.name() : "outside every site";
        return classifier.hostAt(hi, lo)
                .map((Host h) -> addr + ": host " + h.name() + " (" + h.role() + "), " + where)
                .orElse(addr + ": no listed host, " + where);
    }
}
