package io.siteflow.rules.model;

import io.siteflow.model.Cidr;
import java.util.List;
import java.util.Objects;

/**
 * A named site (region, availability domain, data centre) and the networks that make it up. Immutable.
 *
 * @param name  the key under {@code sites:}
 * @param cidrs its networks, IPv4 and/or IPv6, never empty for a loaded site
 */
public record Site(String name, List<Cidr> cidrs) {
    /** The site of an address that lies in no site's networks. */
    public static final Site UNKNOWN = new Site("(unknown)", List.of());

    public Site {
        Objects.requireNonNull(name, "name");
        cidrs = List.copyOf(cidrs);
    }

    /** True for every site except {@link #UNKNOWN}. */
    public boolean isKnown() {
        return this != UNKNOWN;
    }

    @Override
    public String toString() {
        return name;
    }
}
