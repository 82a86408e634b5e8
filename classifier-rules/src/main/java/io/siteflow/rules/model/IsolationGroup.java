package io.siteflow.rules.model;

import io.siteflow.model.Cidr;
import java.util.List;
import java.util.Objects;

/**
 * A named group of addresses of an isolation policy. An address is in the group when any selector takes it (the
 * lists are OR'd); an address may be in several groups. Immutable.
 *
 * @param name     the key under {@code isolation.groups}
 * @param hosts    canonical addresses of listed hosts (a {@code hosts} value may name a host or give its address)
 * @param roles    roles of listed hosts
 * @param sites    site names: every address inside the site's networks
 * @param cidrs    networks: every address inside one
 * @param clusters cluster names of listed hosts ({@code cluster:} of a host entry)
 */
public record IsolationGroup(String name, List<String> hosts, List<Role> roles, List<String> sites,
                             List<Cidr> cidrs, List<String> clusters) {
    public IsolationGroup {
        Objects.requireNonNull(name, "name");
        hosts = List.copyOf(hosts);
        roles = List.copyOf(roles);
        sites = List.copyOf(sites);
        cidrs = List.copyOf(cidrs);
        clusters = List.copyOf(clusters);
    }

    /** True when no selector is given: the group could hold no address. */
    public boolean isEmpty() {
        return hosts.isEmpty() && roles.isEmpty() && sites.isEmpty() && cidrs.isEmpty() && clusters.isEmpty();
    }

    /** True when the host (null for an address no host entry lists) at an address of {@code site} is in the group. */
    public boolean contains(Host host, Site site, long hi, long lo) {
        if (host != null && (hosts.contains(host.address()) || roles.contains(host.role())
                || (!host.cluster().isEmpty() && clusters.contains(host.cluster())))) {
            return true;
        }
        if (site.isKnown() && sites.contains(site.name())) {
            return true;
        }
        for (Cidr c : cidrs) {
            if (c.contains(hi, lo)) {
                return true;
            }
        }
        return false;
    }
}
