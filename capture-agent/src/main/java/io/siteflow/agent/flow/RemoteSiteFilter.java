package io.siteflow.agent.flow;

import io.siteflow.model.Cidr;
import java.util.List;

/**
 * The {@code iftop -F} filter: a packet is kept when exactly one of its ends is inside the remote-site
 * CIDRs; with no CIDR everything is kept. Immutable; thread-safe.
 */
public final class RemoteSiteFilter {
    private final Cidr[] cidrs;

    public RemoteSiteFilter(List<Cidr> cidrs) {
        this.cidrs = cidrs.toArray(new Cidr[0]);
    }

    /** True when no CIDR was given. */
    public boolean keepsAll() {
        return cidrs.length == 0;
    }

    /** True when the address is inside one of the CIDRs. */
    public boolean inside(long hi, long lo) {
        for (Cidr c : cidrs) {
            if (c.contains(hi, lo)) {
                return true;
            }
        }
        return false;
    }

    /** True when the packet between these addresses is kept. */
    public boolean keep(long srcHi, long srcLo, long dstHi, long dstLo) {
        return cidrs.length == 0 || inside(srcHi, srcLo) != inside(dstHi, dstLo);
    }
}
