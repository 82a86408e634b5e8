package io.siteflow.rules.model;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The responder address lies in one of these sites (longest prefix). An address outside every site never
 * matches.
 *
 * @param sites accepted site names, never empty
 */
public record PeerSiteMatch(List<String> sites) implements Match {
    public PeerSiteMatch {
        sites = List.copyOf(sites);
    }

    @Override
    public boolean matches(FlowFacts facts) {
        return facts.dstSite().isKnown() && sites.contains(facts.dstSite().name());
    }

    @Override
    public boolean covers(Match other) {
        return other instanceof PeerSiteMatch o && sites.containsAll(o.sites);
    }

    @Override
    public String key() {
        return "peerSites";
    }

    @Override
    public String values() {
        return String.join(",", sites);
    }

    @Override
    public String actual(FlowFacts facts) {
        return "responder site " + facts.dstSite().name();
    }
}
