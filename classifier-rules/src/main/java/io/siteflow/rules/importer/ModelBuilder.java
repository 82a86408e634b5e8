package io.siteflow.rules.importer;

import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.Role;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Makes the site model of a {@link Domain}: a host per server listen address (role {@code admin} for the Admin
 * Server, {@code app-server} for the others), per channel address of its own, per database address of every
 * data source ({@code db}) and per {@code --frontend} ({@code frontend}); rules for the domain's ports
 * ({@link PortRules}). The result depends on the domain's values only, never on file order or origins.
 * Problems go to {@link Findings}. One use per instance.
 */
public final class ModelBuilder {
    private static final List<String> ROLE_ORDER = List.of(Role.ADMIN.name(), Role.APP_SERVER.name(),
            Role.DB.name(), Role.FRONTEND.name());

    private final ImportOptions options;
    private final Findings findings;
    private final Addresses addresses;
    private final Map<String, Draft> hosts = new LinkedHashMap<>();
    private final PortRules ports = new PortRules();
    private final List<DomainPolicy.DbUse> dbUses = new ArrayList<>();
    private final Set<Integer> coherencePorts = new TreeSet<>();

    private static final class Draft {
        final String address;
        String name;
        String role;
        final Set<String> clusters = new TreeSet<>();
        final Set<String> sources = new TreeSet<>();

        Draft(String address, String name, String role) {
            this.address = address;
            this.name = name;
            this.role = role;
        }
    }

    public ModelBuilder(ImportOptions options, Findings findings) {
        this.options = options;
        this.findings = findings;
        this.addresses = new Addresses(options, findings);
    }

    public ImportedModel build(Domain domain) {
        new ServerImport(this, domain).addAll();
        new DataSourceImport(this, options.tnsNames()).addAll(domain.dataSources());
        for (Domain.CoherenceCluster c : domain.coherenceClusters()) {
            String source = "coherence cluster " + c.name();
            ports.add(Category.COHERENCE, c.clusterPort(), "", source + " cluster-listen-port");
            ports.add(Category.COHERENCE, c.unicastPort(), "", source + " unicast-listen-port");
            coherencePorts.add(c.clusterPort());
            coherencePorts.add(c.unicastPort());
        }
        for (String f : options.frontends()) {
            Origin at = new Origin("--frontend", 1, 1);
            for (String a : addresses.resolve(f, at, "frontend " + f, "address")) {
                place(a, f.equals(a) ? a : names(f), Role.FRONTEND.name(), "--frontend " + f, at, "frontend " + f, "address");
            }
        }
        List<ImportedModel.HostEntry> entries = hosts.values().stream()
                .sorted(Comparator.comparingInt((Draft d) -> ROLE_ORDER.indexOf(d.role))
                        .thenComparing(d -> Addresses.sortKey(d.address)))
                .map(d -> new ImportedModel.HostEntry(d.address, d.name, d.role,
                        d.clusters.isEmpty() ? "" : d.clusters.iterator().next(), List.copyOf(d.sources))).toList();
        Set<String> roles = entries.stream().map(ImportedModel.HostEntry::role).collect(Collectors.toSet());
        List<ImportedModel.RuleEntry> rules = new ArrayList<>();
        if (!domain.jmsServers().isEmpty()) {
            rules.add(new ImportedModel.RuleEntry("domain-t3-jms", Category.JMS, "", List.of(), List.of("t3-jms"),
                    List.of(), List.of("JMS servers " + domain.jmsServers().stream().map(Domain.JmsServer::name)
                            .sorted().collect(Collectors.joining(", ")) + ": JMS over T3 on any port, before the port rules")));
        }
        rules.addAll(ports.rules(roles));
        String isolation = options.isolation() ? new DomainPolicy(domain, entries, dbUses, coherencePorts).block() : "";
        return new ImportedModel(domain.name(), options.sites(), entries, rules, isolation);
    }

    Addresses addresses() {
        return addresses;
    }

    PortRules ports() {
        return ports;
    }

    Findings findings() {
        return findings;
    }

    /** Records that a data source's targets reach its database listeners (for {@link DomainPolicy}). */
    void dbUse(DomainPolicy.DbUse use) {
        dbUses.add(use);
    }

    /**
     * Adds a host when its address is in a site. The same address found twice is one host: the role that
     * comes first in admin, app-server, db, frontend, the first name by {@link #nameOrder}, and every source.
     */
    void place(String address, String name, String role, String source, Origin at, String element, String key) {
        place(address, name, role, "", source, at, element, key);
    }

    /**
     * {@link #place(String, String, String, String, Origin, String, String)} for a server of a cluster
     * ({@code ""} for none). An address that servers of two clusters listen on keeps the lesser cluster name
     * (reported as a warning: an isolation group by cluster takes the address for that cluster only).
     */
    void place(String address, String name, String role, String cluster, String source, Origin at, String element,
               String key) {
        if (addresses.site(address, at, element, key).isEmpty()) {
            return;
        }
        Draft d = hosts.computeIfAbsent(address, a -> new Draft(a, names(name), role));
        if (!cluster.isEmpty() && d.clusters.add(cluster) && d.clusters.size() > 1) {
            findings.warning(at, element, key + " " + address + " is also a listen address of cluster "
                    + d.clusters.stream().filter(c -> !c.equals(cluster)).collect(Collectors.joining(", "))
                    + ": the host is written with cluster " + d.clusters.iterator().next());
        }
        int better = Integer.compare(ROLE_ORDER.indexOf(role), ROLE_ORDER.indexOf(d.role));
        if (better < 0 || better == 0 && nameOrder(names(name), d.name) < 0) {
            d.role = role;
            d.name = names(name);
        }
        d.sources.add(source);
    }

    /** A host name beats a bare address; then the lesser text first. */
    private static int nameOrder(String a, String b) {
        boolean aAddress = HostsFile.isAddress(a);
        return aAddress != HostsFile.isAddress(b) ? (aAddress ? 1 : -1) : a.compareTo(b);
    }

    /** A host name as sites.yaml allows it: letters, digits, {@code . _ -}; anything else becomes {@code -}. */
    static String names(String name) {
        return name.replaceAll("[^A-Za-z0-9._-]", "-");
    }
}
