package io.siteflow.rules.importer;

import io.siteflow.model.Cidr;
import io.siteflow.rules.model.Category;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The site model made from a domain, ready to be written: entries in output order, each with the lines of its
 * {@code # source} comment. Immutable.
 *
 * @param domainName the domain's name, for the file's header
 * @param isolation  the {@code isolation:} block the domain implies ({@link DomainPolicy}), {@code ""} when not asked
 */
public record ImportedModel(String domainName, Map<String, List<Cidr>> sites, List<HostEntry> hosts,
        List<RuleEntry> rules, String isolation) {
    public ImportedModel {
        sites = Collections.unmodifiableMap(new LinkedHashMap<>(sites));
        hosts = List.copyOf(hosts);
        rules = List.copyOf(rules);
    }

    /** A host: address, name, role, WebLogic cluster ({@code ""} for none) and where it came from. */
    public record HostEntry(String address, String name, String role, String cluster, List<String> sources) {
        public HostEntry {
            sources = List.copyOf(sources);
        }
    }

    /**
     * A rule: a port rule ({@code ports} not empty, {@code proto} "tcp" or "") or an L7 rule ({@code l7}).
     *
     * @param peerRoles roles the responder must have, empty for any
     */
    public record RuleEntry(String name, Category category, String proto, List<Integer> ports, List<String> l7,
            List<String> peerRoles, List<String> sources) {
        public RuleEntry {
            ports = List.copyOf(ports);
            l7 = List.copyOf(l7);
            peerRoles = List.copyOf(peerRoles);
            sources = List.copyOf(sources);
        }
    }
}
