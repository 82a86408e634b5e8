package io.siteflow.rules.importer;

import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.PortMatch;
import io.siteflow.rules.model.Role;
import io.siteflow.rules.model.Rule;
import io.siteflow.rules.model.SiteModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code siteflow sites diff}: what changed between a site model and the model imported from the domain now.
 * Hosts are compared by name, only those with a role the import gives ({@code admin}, {@code app-server},
 * {@code db}): a host added ({@code +}), removed ({@code -}), moved to another address, changed role or moved
 * to another cluster ({@code ~}: isolation groups by cluster follow the {@code cluster:} key). Ports are the single ports of the user's rules, with their category. Lines are sorted. Stateless.
 */
public final class SitesDiff {
    private static final Set<Role> IMPORTED_ROLES = Set.of(Role.ADMIN, Role.APP_SERVER, Role.DB);

    private SitesDiff() {
    }

    /** The differences, one line each; empty when the domain still matches the model. */
    public static List<String> between(SiteModel model, SiteModel domain) {
        List<String> out = new ArrayList<>();
        Map<String, Host> was = hosts(model);
        Map<String, Host> now = hosts(domain);
        for (String name : union(was.keySet(), now.keySet())) {
            Host a = was.get(name);
            Host b = now.get(name);
            if (a == null) {
                out.add("+ host " + describe(b));
            } else if (b == null) {
                out.add("- host " + describe(a));
            } else if (!a.address().equals(b.address())) {
                out.add("~ host " + name + " moved: " + a.address() + " (" + a.site().name() + ") -> " + b.address()
                        + " (" + b.site().name() + ")");
            } else if (!a.role().equals(b.role())) {
                out.add("~ host " + name + " role: " + a.role() + " -> " + b.role());
            } else if (!a.cluster().equals(b.cluster())) {
                out.add("~ host " + name + " cluster: " + clusterText(a) + " -> " + clusterText(b));
            }
        }
        Set<PortUse> portsWas = ports(model);
        Set<PortUse> portsNow = ports(domain);
        Set<PortUse> allPorts = new TreeSet<>(portsWas);
        allPorts.addAll(portsNow);
        for (PortUse p : allPorts) {
            if (!portsWas.contains(p)) {
                out.add("+ port " + p);
            } else if (!portsNow.contains(p)) {
                out.add("- port " + p);
            }
        }
        return out;
    }

    private static String clusterText(Host h) {
        return h.cluster().isEmpty() ? "(none)" : h.cluster();
    }

    private static Map<String, Host> hosts(SiteModel m) {
        return m.hosts().stream().filter(h -> IMPORTED_ROLES.contains(h.role()))
                .collect(Collectors.toMap(Host::name, Function.identity(), (x, y) -> x, TreeMap::new));
    }

    /** A port of a rule and its category, ordered by port. */
    private record PortUse(int port, String category) implements Comparable<PortUse> {
        @Override
        public int compareTo(PortUse o) {
            return port != o.port ? Integer.compare(port, o.port) : category.compareTo(o.category);
        }

        @Override
        public String toString() {
            return port + " " + category;
        }
    }

    /** The single ports of the user's rules with their category. */
    private static Set<PortUse> ports(SiteModel m) {
        Set<PortUse> out = new TreeSet<>();
        for (Rule r : m.rules()) {
            if (r.builtIn()) {
                continue;
            }
            r.matches().stream().filter(x -> x instanceof PortMatch).flatMap(x -> ((PortMatch) x).ranges().stream())
                    .filter(range -> range.low() == range.high())
                    .forEach(range -> out.add(new PortUse(range.low(), r.category().name())));
        }
        return out;
    }

    private static String describe(Host h) {
        return h.name() + " " + h.address() + " (" + h.role() + ", " + h.site().name() + ")";
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new TreeSet<>(a);
        all.addAll(b);
        return all;
    }
}
