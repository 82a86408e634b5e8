package io.siteflow.rules.isolation;

import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.IsolationPolicy;
import io.siteflow.rules.model.SiteModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The groups a proposal is written with: one group per WebLogic cluster of the site model's hosts, then one per role
 * of the hosts in no cluster, so that each listed host is in exactly one group (the most specific: its cluster, else
 * its role) and an address in a site that no host entry lists is in the built-in {@code unlisted}. A role some of
 * whose hosts are in a cluster selects its other hosts by name ({@code hosts: [...]}) instead of by role, so that the
 * groups stay disjoint: removing a proposed rule then makes exactly that rule's edges violate. Immutable.
 */
final class ProposalGroups {
    private final List<PolicyYaml.Group> groups = new ArrayList<>();
    private final Map<String, String> groupOfAddress = new HashMap<>();

    ProposalGroups(SiteModel model) {
        Set<String> taken = new HashSet<>(List.of(IsolationPolicy.ANY, IsolationPolicy.UNLISTED));
        Map<String, List<Host>> clusters = new LinkedHashMap<>();
        Map<String, List<Host>> roles = new LinkedHashMap<>();
        Set<String> clusteredRoles = new HashSet<>();
        for (Host h : model.hosts()) {
            if (h.cluster().isEmpty()) {
                roles.computeIfAbsent(h.role().name(), k -> new ArrayList<>()).add(h);
            } else {
                clusters.computeIfAbsent(h.cluster(), k -> new ArrayList<>()).add(h);
                clusteredRoles.add(h.role().name());
            }
        }
        clusters.forEach((cluster, hosts) -> add(unique(cluster, "cluster", taken),
                Map.of("clusters", List.of(cluster)), hosts));
        roles.forEach((role, hosts) -> add(unique(role, "role", taken), clusteredRoles.contains(role)
                ? Map.of("hosts", hosts.stream().map(h -> hostRef(model, h)).toList())
                : Map.of("roles", List.of(role)), hosts));
    }

    /** The groups, clusters first, then roles, each in the order of the model's hosts. */
    List<PolicyYaml.Group> groups() {
        return groups;
    }

    /** The proposal's group of a canonical address in a site: its host's group, else {@code unlisted}. */
    String groupOf(String address) {
        return groupOfAddress.getOrDefault(address, IsolationPolicy.UNLISTED);
    }

    /** The position of a group in {@link #groups()}, {@code unlisted} last. */
    int order(String group) {
        for (int i = 0; i < groups.size(); i++) {
            if (groups.get(i).name().equals(group)) {
                return i;
            }
        }
        return groups.size();
    }

    private void add(String name, Map<String, List<String>> selectors, List<Host> hosts) {
        groups.add(new PolicyYaml.Group(name, selectors));
        hosts.forEach(h -> groupOfAddress.put(h.address(), name));
    }

    /** The host's name when no other host has it, else its address (a {@code hosts} value takes either). */
    private static String hostRef(SiteModel model, Host h) {
        long same = model.hosts().stream().filter(o -> o.name().equals(h.name()) || o.address().equals(h.name()))
                .count();
        return same == 1 ? h.name() : h.address();
    }

    /** {@code name}, else {@code name-kind}, else {@code name-kind-2}, ... : a name no other group has. */
    private static String unique(String name, String kind, Set<String> taken) {
        String candidate = name;
        for (int n = 1; !taken.add(candidate); n++) {
            candidate = name + "-" + kind + (n == 1 ? "" : "-" + n);
        }
        return candidate;
    }
}
