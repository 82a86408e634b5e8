package io.siteflow.rules.classify;

import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.Rule;
import io.siteflow.rules.model.Site;
import java.util.Objects;

/**
 * The outcome of classifying one flow. Immutable.
 *
 * @param category the matched rule's category, {@link Category#UNKNOWN} when no rule matched
 * @param rule     the first matching rule, {@link Rule#NONE} when none matched
 * @param srcSite  site of the initiator, {@link Site#UNKNOWN} when outside every site
 * @param dstSite  site of the responder, {@link Site#UNKNOWN} when outside every site
 */
public record Classification(Category category, Rule rule, Site srcSite, Site dstSite) {
    public Classification {
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(srcSite, "srcSite");
        Objects.requireNonNull(dstSite, "dstSite");
    }

    /** True when a rule matched. */
    public boolean matched() {
        return rule != Rule.NONE;
    }

    /** True when both ends are in known, different sites. */
    public boolean crossSite() {
        return srcSite.isKnown() && dstSite.isKnown() && srcSite != dstSite;
    }
}
