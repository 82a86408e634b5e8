package io.siteflow.rules.importer;

import io.siteflow.rules.isolation.PolicyYaml;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.IsolationPolicy;
import io.siteflow.rules.model.Role;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The {@code isolation:} block a WebLogic domain implies ({@code siteflow sites import --isolation}; docs/RULES.md,
 * "Proposing a policy"): what its architects configured, so that traffic the domain does not explain becomes a
 * violation. Groups: one per cluster with listed hosts ({@code clusters: [name]}), {@code admin} (the Admin Server),
 * {@code app-server} (managed servers of no cluster, by name) and {@code db} (every database host), each only when
 * it has hosts. Allow rules, cross-site, each after a comment naming what it came from:
 * <ul>
 *   <li>a cluster talks inside itself: CLUSTER on its servers' listen, SSL and cluster channel ports; JMS on their
 *       JMS channel ports and, when a JMS server is targeted to the cluster or one of its servers, their listen
 *       ports (JMS over T3); COHERENCE on their unicast ports and the domain's Coherence cluster ports, TCP and UDP;</li>
 *   <li>servers reach the databases of the data sources targeted to them (to their cluster or to the server) on
 *       the listeners' ports, with the data source's protocol ({@code l7: [oracle-tns]} for Oracle);</li>
 *   <li>the Admin Server reaches the managed servers on their listen, SSL and admin channel ports and the domain's
 *       administration port, and the managed servers reach it on its own (they boot from it).</li>
 * </ul>
 * The text depends on the domain's values only, never on file order. One use per instance.
 */
final class DomainPolicy {
    private static final String ADMIN = Role.ADMIN.name();
    private static final String STANDALONE = Role.APP_SERVER.name();
    private static final String DB = Role.DB.name();

    /**
     * A data source's use of its database listeners.
     *
     * @param targets the clusters and servers it is targeted to
     * @param l7      the wire name of its database protocol
     */
    record DbUse(String dataSource, List<String> targets, List<Endpoint> endpoints, String l7) {
        DbUse {
            Objects.requireNonNull(dataSource, "dataSource");
            targets = List.copyOf(targets);
            endpoints = List.copyOf(endpoints);
        }
    }

    private final Domain domain;
    private final List<ImportedModel.HostEntry> hosts;
    private final List<DbUse> dbUses;
    private final Set<Integer> coherencePorts;
    /** Group name → its selectors, in output order. */
    private final Map<String, PolicyYaml.Group> groups = new LinkedHashMap<>();
    /** Cluster name → its group's name. */
    private final Map<String, String> clusterGroups = new TreeMap<>();
    private final List<PolicyYaml.Rule> rules = new ArrayList<>();

    DomainPolicy(Domain domain, List<ImportedModel.HostEntry> hosts, List<DbUse> dbUses, Set<Integer> coherencePorts) {
        this.domain = domain;
        this.hosts = List.copyOf(hosts);
        this.dbUses = List.copyOf(dbUses);
        this.coherencePorts = Set.copyOf(coherencePorts);
    }

    /** The block, from its header comment to its last line. */
    String block() {
        makeGroups();
        clusterGroups.forEach(this::insideCluster);
        managedGroups().forEach(this::databases);
        if (groups.containsKey(ADMIN)) {
            databases(ADMIN);
            managedGroups().forEach(this::adminAndManaged);
        }
        return PolicyYaml.block(List.of("isolation policy the domain " + domain.name() + " implies (`siteflow sites "
                        + "import --isolation`): traffic it does not explain is a violation (docs/RULES.md, \"Proposing a "
                        + "policy\")"), IsolationPolicy.Scope.CROSS_SITE.text(), List.copyOf(groups.values()), rules,
                List.of());
    }

    private void makeGroups() {
        Set<String> clusters = hosts.stream().map(ImportedModel.HostEntry::cluster).filter(c -> !c.isEmpty())
                .collect(Collectors.toCollection(TreeSet::new));
        for (String c : clusters) {
            String name = List.of(ADMIN, STANDALONE, DB, IsolationPolicy.ANY, IsolationPolicy.UNLISTED).contains(c)
                    ? c + "-cluster" : c;
            clusterGroups.put(c, name);
            groups.put(name, new PolicyYaml.Group(name, Map.of("clusters", List.of(c))));
        }
        if (hosts.stream().anyMatch(h -> h.role().equals(ADMIN))) {
            groups.put(ADMIN, new PolicyYaml.Group(ADMIN, Map.of("roles", List.of(ADMIN))));
        }
        List<String> standalone = hosts.stream().filter(h -> h.role().equals(STANDALONE) && h.cluster().isEmpty())
                .map(ImportedModel.HostEntry::name).toList();
        if (!standalone.isEmpty()) {
            groups.put(STANDALONE, new PolicyYaml.Group(STANDALONE, Map.of("hosts", standalone)));
        }
        if (hosts.stream().anyMatch(h -> h.role().equals(DB))) {
            groups.put(DB, new PolicyYaml.Group(DB, Map.of("roles", List.of(DB))));
        }
    }

    /** The groups of managed servers: the clusters', then the servers of no cluster. */
    private List<String> managedGroups() {
        List<String> out = new ArrayList<>(clusterGroups.values());
        if (groups.containsKey(STANDALONE)) {
            out.add(STANDALONE);
        }
        return out;
    }

    private void insideCluster(String cluster, String group) {
        List<Domain.Server> members = servers(group);
        String names = serverNames(members);
        Set<Integer> clusterPorts = new TreeSet<>();
        Set<Integer> jmsPorts = new TreeSet<>();
        Set<Integer> coherence = new TreeSet<>(coherencePorts);
        for (Domain.Server s : members) {
            clusterPorts.add(s.listenPort());
            clusterPorts.add(s.sslPort());
            coherence.add(s.unicastPort());
            for (Domain.Channel c : s.channels()) {
                Category category = PortRules.channelCategory(c.name(), c.protocol());
                (category == Category.JMS ? jmsPorts : category == Category.CLUSTER ? clusterPorts : new TreeSet<Integer>())
                        .add(c.port());
            }
        }
        boolean jmsServers = domain.jmsServers().stream().anyMatch(j -> j.targets().contains(cluster)
                || members.stream().anyMatch(s -> j.targets().contains(s.name())));
        if (jmsServers) {
            members.forEach(s -> jmsPorts.add(s.listenPort()));
        }
        String of = "cluster " + cluster + " (" + names + ")";
        rule(of + ": listen, SSL and cluster channel ports", group + "-cluster", group, group, Category.CLUSTER,
                clusterPorts, "tcp", "");
        rule(of + ": JMS channel ports" + (jmsServers ? " and, with its JMS servers, listen ports (JMS over T3)" : ""),
                group + "-jms", group, group, Category.JMS, jmsPorts, "tcp", "");
        rule(of + ": Coherence unicast and cluster ports, TCP and UDP", group + "-coherence", group, group,
                Category.COHERENCE, coherence, "", "");
    }

    private void databases(String group) {
        if (!groups.containsKey(DB)) {
            return;
        }
        Map<String, List<DbUse>> byProtocol = new TreeMap<>();
        for (DbUse u : dbUses) {
            if (u.targets().stream().map(this::groupOfTarget).anyMatch(g -> g.equals(Optional.of(group)))) {
                byProtocol.computeIfAbsent(u.l7(), k -> new ArrayList<>()).add(u);
            }
        }
        byProtocol.forEach((l7, uses) -> {
            Set<Integer> ports = uses.stream().flatMap(u -> u.endpoints().stream()).map(Endpoint::port)
                    .collect(Collectors.toCollection(TreeSet::new));
            String sources = uses.stream().map(DbUse::dataSource).sorted().collect(Collectors.joining(", "));
            String listeners = uses.stream().flatMap(u -> u.endpoints().stream()).map(Endpoint::toString).distinct()
                    .sorted().collect(Collectors.joining(", "));
            rule("data source" + (uses.size() == 1 ? " " : "s ") + sources + " targeted to " + group + ": listeners "
                    + listeners, group + "-to-db" + (byProtocol.size() == 1 ? "" : "-" + l7), group, DB, Category.DB,
                    ports, "tcp", l7);
        });
    }

    private void adminAndManaged(String group) {
        List<Domain.Server> admin = domain.servers().stream().filter(s -> s.name().equals(domain.adminServerName()))
                .toList();
        rule("admin server " + domain.adminServerName() + " to " + group + " (" + serverNames(servers(group))
                        + "): listen, SSL and admin channel ports, administration port", ADMIN + "-to-" + group, ADMIN,
                group, null, managementPorts(servers(group)), "tcp", "");
        rule(group + " to admin server " + domain.adminServerName() + ": its listen, SSL and admin channel ports, "
                        + "administration port", group + "-to-" + ADMIN, group, ADMIN, null, managementPorts(admin), "tcp",
                "");
    }

    private Set<Integer> managementPorts(Collection<Domain.Server> servers) {
        Set<Integer> ports = new TreeSet<>();
        for (Domain.Server s : servers) {
            ports.add(s.listenPort());
            ports.add(s.sslPort());
            ports.add(domain.administrationPort());
            s.channels().stream().filter(c -> PortRules.channelCategory(c.name(), c.protocol()) == Category.ADMIN)
                    .forEach(c -> ports.add(c.port()));
        }
        return ports;
    }

    /** Adds a rule unless it has no port (0 is not a port: not written in the domain). */
    private void rule(String comment, String name, String from, String to, Category category, Set<Integer> ports,
                      String proto, String l7) {
        List<String> portList = ports.stream().filter(p -> p > 0).map(String::valueOf).toList();
        if (portList.isEmpty()) {
            return;
        }
        rules.add(new PolicyYaml.Rule(List.of(comment), name, List.of(from), List.of(to),
                category == null ? List.of() : List.of(category.name()), portList,
                proto.isEmpty() ? List.of() : List.of(proto), l7.isEmpty() ? List.of() : List.of(l7)));
    }

    /** The managed servers of a group, by name. */
    private List<Domain.Server> servers(String group) {
        return domain.servers().stream().filter(s -> !s.name().equals(domain.adminServerName()))
                .filter(s -> group.equals(s.cluster().isEmpty() ? STANDALONE : clusterGroups.get(s.cluster())))
                .sorted(java.util.Comparator.comparing(Domain.Server::name)).toList();
    }

    private static String serverNames(List<Domain.Server> servers) {
        return servers.stream().map(Domain.Server::name).collect(Collectors.joining(", "));
    }

    /** The group of a data source's target: a cluster's, the admin server's, or a managed server's. */
    private Optional<String> groupOfTarget(String target) {
        if (clusterGroups.containsKey(target)) {
            return Optional.of(clusterGroups.get(target));
        }
        if (target.equals(domain.adminServerName())) {
            return groups.containsKey(ADMIN) ? Optional.of(ADMIN) : Optional.empty();
        }
        return domain.servers().stream().filter(s -> s.name().equals(target)).findFirst()
                .map(s -> s.cluster().isEmpty() ? STANDALONE : clusterGroups.get(s.cluster()))
                .filter(groups::containsKey);
    }
}
