package io.siteflow.rules.model;

import io.siteflow.model.Cidr;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The responder address lies in one of these networks.
 *
 * @param cidrs accepted networks, IPv4 and/or IPv6, never empty
 */
public record CidrMatch(List<Cidr> cidrs) implements Match {
    public CidrMatch {
        cidrs = List.copyOf(cidrs);
    }

    @Override
    public boolean matches(FlowFacts facts) {
        Flow f = facts.flow();
        for (Cidr c : cidrs) {
            if (c.contains(f.dstHi(), f.dstLo())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean covers(Match other) {
        if (!(other instanceof CidrMatch o)) {
            return false;
        }
        return o.cidrs.stream().allMatch(inner -> cidrs.stream()
                .anyMatch(outer -> outer.bits() <= inner.bits() && outer.contains(inner.hi(), inner.lo())));
    }

    @Override
    public String key() {
        return "cidrs";
    }

    @Override
    public String values() {
        return cidrs.stream().map(Cidr::toString).collect(Collectors.joining(","));
    }

    @Override
    public String actual(FlowFacts facts) {
        return "responder " + facts.flow().dst();
    }
}
