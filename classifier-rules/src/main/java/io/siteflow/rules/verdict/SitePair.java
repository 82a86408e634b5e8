package io.siteflow.rules.verdict;

import io.siteflow.rules.model.Site;
import java.util.Comparator;
import java.util.Objects;

/**
 * Two sites, unordered: {@code siteA <= siteB} by name (equal for an intra-site pair). The one key of site-pair
 * figures (the audit's site-pair RTT, the processor's links, the what-if's links). Immutable.
 *
 * @param siteA the first site by name
 * @param siteB the second
 */
public record SitePair(String siteA, String siteB) implements Comparable<SitePair> {
    private static final Comparator<SitePair> ORDER = Comparator.comparing(SitePair::siteA)
            .thenComparing(SitePair::siteB);

    /** @throws IllegalArgumentException when the names are not in order */
    public SitePair {
        Objects.requireNonNull(siteA, "siteA");
        Objects.requireNonNull(siteB, "siteB");
        if (siteA.compareTo(siteB) > 0) {
            throw new IllegalArgumentException("site pair: " + siteA + " after " + siteB + "; use SitePair.of");
        }
    }

    /** The pair of two site names, in either order. */
    public static SitePair of(String x, String y) {
        return x.compareTo(y) <= 0 ? new SitePair(x, y) : new SitePair(y, x);
    }

    /** The pair of two sites, in either order. */
    public static SitePair of(Site x, Site y) {
        return of(x.name(), y.name());
    }

    /** The sites of an audited pair: the server's and the remote one. */
    public static SitePair of(AuditPair p) {
        return of(p.server().site(), p.remoteSite());
    }

    /** True when both sites are the same. */
    public boolean intraSite() {
        return siteA.equals(siteB);
    }

    @Override
    public int compareTo(SitePair o) {
        return ORDER.compare(this, o);
    }
}
