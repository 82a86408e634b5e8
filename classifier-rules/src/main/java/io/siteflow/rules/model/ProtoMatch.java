package io.siteflow.rules.model;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The flow's IP protocol is one of these.
 *
 * @param protocols IANA protocol numbers, never empty
 */
public record ProtoMatch(List<Integer> protocols) implements Match {
    public ProtoMatch {
        protocols = List.copyOf(protocols);
    }

    @Override
    public boolean matches(FlowFacts facts) {
        return protocols.contains(facts.flow().proto());
    }

    @Override
    public boolean covers(Match other) {
        return other instanceof ProtoMatch o && protocols.containsAll(o.protocols);
    }

    @Override
    public String key() {
        return "proto";
    }

    @Override
    public String values() {
        return protocols.stream().map(Protocols::name).collect(Collectors.joining(","));
    }

    @Override
    public String actual(FlowFacts facts) {
        return "proto " + Protocols.name(facts.flow().proto());
    }
}
