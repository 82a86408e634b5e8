package io.siteflow.rules.model;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The responder is a listed host with one of these roles. An address that is no listed host never matches.
 *
 * @param roles accepted roles, never empty
 */
public record PeerRoleMatch(List<Role> roles) implements Match {
    public PeerRoleMatch {
        roles = List.copyOf(roles);
    }

    @Override
    public boolean matches(FlowFacts facts) {
        return roles.contains(facts.dstRole());
    }

    @Override
    public boolean covers(Match other) {
        return other instanceof PeerRoleMatch o && roles.containsAll(o.roles);
    }

    @Override
    public String key() {
        return "peerRoles";
    }

    @Override
    public String values() {
        return roles.stream().map(Role::name).collect(Collectors.joining(","));
    }

    @Override
    public String actual(FlowFacts facts) {
        return "responder role " + facts.dstRole().name();
    }
}
