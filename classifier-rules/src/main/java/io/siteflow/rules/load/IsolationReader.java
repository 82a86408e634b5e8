package io.siteflow.rules.load;

import io.siteflow.model.Cidr;
import io.siteflow.model.IpAddresses;
import io.siteflow.model.L7Protocol;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.IsolationGroup;
import io.siteflow.rules.model.IsolationPolicy;
import io.siteflow.rules.model.IsolationRule;
import io.siteflow.rules.model.PortRange;
import io.siteflow.rules.model.Role;
import io.siteflow.rules.model.Site;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Reads the {@code isolation:} block (docs/RULES.md, "Isolation policy"), reporting every problem at its position:
 * bad keys and values, unknown and empty groups, duplicate names, and (as warnings) rules that an earlier rule makes
 * useless. Not thread-safe; one per load.
 */
final class IsolationReader {
    static final List<String> KEYS = List.of("scope", "default", "groups", "deny", "allow");
    static final List<String> GROUP_KEYS = List.of("hosts", "roles", "sites", "cidrs", "clusters");
    static final List<String> RULE_KEYS = List.of("name", "from", "to", "categories", "ports", "proto", "l7");

    private final Reading reading;
    private final List<Site> sites;
    private final List<Host> hosts;
    private final RuleReader values;

    IsolationReader(Reading reading, List<Site> sites, List<Host> hosts) {
        this.reading = reading;
        this.sites = sites;
        this.hosts = hosts;
        this.values = new RuleReader(reading, sites.stream().map(Site::name).toList(), false);
    }

    /** A rule with the node it was read from and the list it is in. */
    private record ReadRule(IsolationRule rule, Reading.At at) {
    }

    /** The policy, or empty when the block has an error (every error is reported). */
    Optional<IsolationPolicy> read(Reading.At at) {
        Optional<Map<String, Reading.At>> fields = reading.mapping(at, KEYS, List.of());
        if (fields.isEmpty()) {
            return Optional.empty();
        }
        int before = reading.diagnostics().errorCount();
        Map<String, Reading.At> f = fields.get();
        IsolationPolicy.Scope scope = Optional.ofNullable(f.get("scope")).map(this::scope)
                .orElse(IsolationPolicy.Scope.CROSS_SITE);
        IsolationPolicy.DefaultAction action = Optional.ofNullable(f.get("default")).map(this::defaultAction)
                .orElse(IsolationPolicy.DefaultAction.DENY);
        List<String> groupNames = new ArrayList<>(List.of(IsolationPolicy.ANY, IsolationPolicy.UNLISTED));
        List<IsolationGroup> groups = Optional.ofNullable(f.get("groups")).map(g -> groups(g, groupNames))
                .orElse(List.of());
        List<ReadRule> deny = Optional.ofNullable(f.get("deny")).map(a -> rules(a, groupNames)).orElse(List.of());
        List<ReadRule> allow = Optional.ofNullable(f.get("allow")).map(a -> rules(a, groupNames)).orElse(List.of());
        checkNames(deny, allow);
        checkShadows(deny, "never matches", "matches");
        checkShadows(allow, "never matches", "matches");
        checkAllowsDenied(deny, allow);
        if (reading.diagnostics().errorCount() > before) {
            return Optional.empty();
        }
        List<IsolationRule> denyRules = deny.stream().map(ReadRule::rule).toList();
        List<IsolationRule> allowRules = allow.stream().map(ReadRule::rule).toList();
        return Optional.of(new IsolationPolicy(scope, action, groups, denyRules, allowRules,
                CanonicalForm.version(canonical(scope, action, groups, denyRules, allowRules))));
    }

    private IsolationPolicy.Scope scope(Reading.At at) {
        return reading.scalar(at).flatMap(s -> {
            Optional<IsolationPolicy.Scope> scope = IsolationPolicy.Scope.parse(s.text());
            if (scope.isEmpty()) {
                reading.error(at, Reading.quote(s.text()) + " is not a scope (cross-site or all)");
            }
            return scope;
        }).orElse(IsolationPolicy.Scope.CROSS_SITE);
    }

    private IsolationPolicy.DefaultAction defaultAction(Reading.At at) {
        return reading.scalar(at).flatMap(s -> {
            Optional<IsolationPolicy.DefaultAction> action = IsolationPolicy.DefaultAction.parse(s.text());
            if (action.isEmpty()) {
                reading.error(at, Reading.quote(s.text()) + " is not a default (deny or allow)");
            }
            return action;
        }).orElse(IsolationPolicy.DefaultAction.DENY);
    }

    /** The groups read whole; {@code declared} gets every well-named group's name, read whole or not (a rule naming
     * a group with an error is not reported again as naming an unknown group). */
    private List<IsolationGroup> groups(Reading.At at, List<String> declared) {
        List<IsolationGroup> out = new ArrayList<>();
        reading.namedEntries(at).ifPresent(entries -> {
            for (Map.Entry<io.siteflow.rules.load.YamlNode.Key, Reading.At> e : entries) {
                String name = e.getKey().text();
                Reading.At value = e.getValue();
                if (name.equals(IsolationPolicy.ANY) || name.equals(IsolationPolicy.UNLISTED)) {
                    reading.diagnostics().error(e.getKey(), value.path(), Reading.quote(name) + " is a built-in group ("
                            + (name.equals(IsolationPolicy.ANY) ? "every address" : "addresses in a site that no host "
                            + "entry lists") + "): choose another name");
                    continue;
                }
                if (!RuleReader.NAME.matcher(name).matches()) {
                    reading.diagnostics().error(e.getKey(), value.path(), Reading.quote(name)
                            + " is not a group name (letters, digits, '.', '_', '-')");
                    continue;
                }
                if (declared.size() - 2 == IsolationPolicy.MAX_GROUPS) { // any and unlisted come first
                    reading.diagnostics().error(e.getKey(), value.path(), "more than " + IsolationPolicy.MAX_GROUPS
                            + " groups");
                    continue;
                }
                declared.add(name);
                group(name, value).ifPresent(out::add);
            }
        });
        return out;
    }

    private Optional<IsolationGroup> group(String name, Reading.At at) {
        if (at.node() instanceof YamlNode.Scalar s && s.type() == YamlNode.ScalarType.NULL
                || at.node() instanceof YamlNode.Mapping m && m.entries().isEmpty()) {
            reading.error(at, "empty group " + Reading.quote(name) + " (give hosts, roles, sites, cidrs or clusters)");
            return Optional.empty();
        }
        int before = reading.diagnostics().errorCount();
        return reading.mapping(at, GROUP_KEYS, List.of()).flatMap(f -> {
            List<String> hostAddresses = list(f.get("hosts"), this::host);
            List<Role> roles = list(f.get("roles"), this::role);
            List<String> siteNames = list(f.get("sites"), this::site);
            List<Cidr> cidrs = list(f.get("cidrs"), this::cidr);
            List<String> clusters = list(f.get("clusters"), this::cluster);
            if (reading.diagnostics().errorCount() > before) {
                return Optional.empty();
            }
            IsolationGroup g = new IsolationGroup(name, hostAddresses, roles, siteNames, cidrs, clusters);
            if (g.isEmpty()) {
                reading.error(at, "empty group " + Reading.quote(name) + " (give hosts, roles, sites, cidrs or clusters)");
                return Optional.empty();
            }
            return Optional.of(g);
        });
    }

    private interface ItemReader<T> {
        Optional<T> read(Reading.At at, String text);
    }

    private <T> List<T> list(Reading.At at, ItemReader<T> item) {
        List<T> out = new ArrayList<>();
        if (at == null) {
            return out;
        }
        for (Reading.At i : reading.nonEmptyItems(at)) {
            reading.scalar(i).flatMap(s -> item.read(i, s.text())).filter(v -> !out.contains(v)).ifPresent(out::add);
        }
        return out;
    }

    private Optional<String> host(Reading.At at, String text) {
        String canonical = text;
        try {
            long[] a = IpAddresses.parse(text);
            canonical = IpAddresses.format(a[0], a[1]);
        } catch (IllegalArgumentException notAnAddress) {
            // a host name
        }
        for (Host h : hosts) {
            if (h.address().equals(canonical) || h.name().equals(text)) {
                return Optional.of(h.address());
            }
        }
        List<String> names = hosts.stream().map(Host::name).toList();
        reading.error(at, KeySuggester.nearest(text, names)
                .map(n -> Reading.quote(text) + " is not a listed host, did you mean " + Reading.quote(n) + "?")
                .orElse(Reading.quote(text) + " is not a listed host (address or name of a hosts entry)"));
        return Optional.empty();
    }

    private Optional<Role> role(Reading.At at, String text) {
        if (!RuleReader.NAME.matcher(text).matches()) {
            reading.error(at, Reading.quote(text) + " is not a role name (letters, digits, '.', '_', '-')");
            return Optional.empty();
        }
        if (hosts.stream().noneMatch(h -> h.role().name().equals(text))) {
            reading.warning(at, "no listed host has role " + Reading.quote(text));
        }
        return Optional.of(new Role(text));
    }

    private Optional<String> site(Reading.At at, String text) {
        if (sites.stream().anyMatch(s -> s.name().equals(text))) {
            return Optional.of(text);
        }
        reading.error(at, RuleReader.unknownSite(text, sites.stream().map(Site::name).toList()));
        return Optional.empty();
    }

    private Optional<Cidr> cidr(Reading.At at, String text) {
        try {
            return Optional.of(Cidr.parse(text));
        } catch (IllegalArgumentException e) {
            reading.error(at, e.getMessage());
            return Optional.empty();
        }
    }

    private Optional<String> cluster(Reading.At at, String text) {
        if (!RuleReader.NAME.matcher(text).matches()) {
            reading.error(at, Reading.quote(text) + " is not a cluster name (letters, digits, '.', '_', '-')");
            return Optional.empty();
        }
        if (hosts.stream().noneMatch(h -> h.cluster().equals(text))) {
            reading.warning(at, "no listed host is in cluster " + Reading.quote(text));
        }
        return Optional.of(text);
    }

    private List<ReadRule> rules(Reading.At list, List<String> groupNames) {
        List<ReadRule> out = new ArrayList<>();
        for (Reading.At item : reading.items(list)) {
            rule(item, groupNames).ifPresent(r -> out.add(new ReadRule(r, item)));
        }
        return out;
    }

    private Optional<IsolationRule> rule(Reading.At at, List<String> groupNames) {
        return reading.mapping(at, RULE_KEYS, List.of("name", "from", "to")).flatMap(f -> {
            int before = reading.diagnostics().errorCount();
            String name = Optional.ofNullable(f.get("name")).flatMap(reading::scalar).map(YamlNode.Scalar::text)
                    .orElse("");
            if (!name.isEmpty() && !RuleReader.NAME.matcher(name).matches()) {
                reading.error(f.get("name"), Reading.quote(name) + " is not a rule name (letters, digits, '.', '_', '-')");
            }
            List<String> from = list(f.get("from"), (i, t) -> groupName(i, t, groupNames));
            List<String> to = list(f.get("to"), (i, t) -> groupName(i, t, groupNames));
            List<Category> categories = list(f.get("categories"), this::category);
            List<PortRange> ports = f.containsKey("ports") ? values.ports(f.get("ports")).ranges() : List.of();
            List<Integer> protos = f.containsKey("proto") ? values.proto(f.get("proto")).protocols() : List.of();
            List<L7Protocol> l7 = f.containsKey("l7") ? values.l7(f.get("l7")).protocols() : List.of();
            if (reading.diagnostics().errorCount() > before || !f.containsKey("name") || !f.containsKey("from")
                    || !f.containsKey("to")) {
                return Optional.empty();
            }
            String origin = reading.diagnostics().file() + ":" + at.node().line() + ":" + at.node().column();
            return Optional.of(new IsolationRule(name, from, to, categories, ports, protos, l7, origin));
        });
    }

    private Optional<String> groupName(Reading.At at, String text, List<String> groupNames) {
        if (groupNames.contains(text)) {
            return Optional.of(text);
        }
        reading.error(at, KeySuggester.nearest(text, groupNames)
                .map(n -> "unknown group " + Reading.quote(text) + ", did you mean " + Reading.quote(n) + "?")
                .orElse("unknown group " + Reading.quote(text) + " (groups: " + String.join(", ", groupNames) + ")"));
        return Optional.empty();
    }

    private Optional<Category> category(Reading.At at, String text) {
        if (Category.isName(text)) {
            return Optional.of(Category.parse(text));
        }
        reading.error(at, Reading.quote(text) + " is not a category (" + Arrays.stream(Category.all())
                .map(Enum::name).collect(Collectors.joining(", ")) + ")");
        return Optional.empty();
    }

    private void checkNames(List<ReadRule> deny, List<ReadRule> allow) {
        Map<String, String> seen = new HashMap<>();
        for (ReadRule r : concat(deny, allow)) {
            String first = seen.putIfAbsent(r.rule().name(), r.at().path());
            if (first != null) {
                reading.error(r.at(), "duplicate rule name " + Reading.quote(r.rule().name()) + " (also " + first + ")");
            }
        }
    }

    private void checkShadows(List<ReadRule> rules, String never, String verb) {
        for (int j = 1; j < rules.size(); j++) {
            for (int i = 0; i < j; i++) {
                if (rules.get(i).rule().shadows(rules.get(j).rule())) {
                    reading.warning(rules.get(j).at(), "rule " + Reading.quote(rules.get(j).rule().name()) + " " + never
                            + ": " + rules.get(i).at().path() + " (" + Reading.quote(rules.get(i).rule().name()) + ") "
                            + verb + " every flow it would");
                    break;
                }
            }
        }
    }

    /** An allow rule every flow of which a deny rule denies first. */
    private void checkAllowsDenied(List<ReadRule> deny, List<ReadRule> allow) {
        for (ReadRule a : allow) {
            for (ReadRule d : deny) {
                if (d.rule().shadows(a.rule())) {
                    reading.warning(a.at(), "rule " + Reading.quote(a.rule().name()) + " never allows: "
                            + d.at().path() + " (" + Reading.quote(d.rule().name()) + ") denies every flow it would");
                    break;
                }
            }
        }
    }

    private static List<ReadRule> concat(List<ReadRule> a, List<ReadRule> b) {
        List<ReadRule> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /** The text the policy's version is the hash of. */
    static String canonical(IsolationPolicy.Scope scope, IsolationPolicy.DefaultAction action,
                            List<IsolationGroup> groups, List<IsolationRule> deny, List<IsolationRule> allow) {
        StringBuilder sb = new StringBuilder();
        sb.append("isolation scope ").append(scope.text()).append(" default ").append(action.text()).append('\n');
        groups.stream().sorted(Comparator.comparing(IsolationGroup::name)).forEach(g -> {
            Map<String, List<?>> selectors = new LinkedHashMap<>();
            selectors.put("hosts", g.hosts());
            selectors.put("roles", g.roles().stream().map(Role::name).toList());
            selectors.put("sites", g.sites());
            selectors.put("cidrs", g.cidrs());
            selectors.put("clusters", g.clusters());
            sb.append("group ").append(g.name());
            selectors.forEach((k, v) -> {
                if (!v.isEmpty()) {
                    sb.append(' ').append(k).append('=').append(sortedText(v));
                }
            });
            sb.append('\n');
        });
        deny.forEach(r -> rule(sb.append("deny "), r));
        allow.forEach(r -> rule(sb.append("allow "), r));
        return sb.toString();
    }

    private static void rule(StringBuilder sb, IsolationRule r) {
        sb.append(r.name()).append(" from=").append(sortedText(r.from())).append(" to=").append(sortedText(r.to()));
        if (!r.categories().isEmpty()) {
            sb.append(" categories=").append(sortedText(r.categories()));
        }
        if (!r.ports().isEmpty()) {
            sb.append(" ports=").append(sortedText(r.ports()));
        }
        if (!r.protos().isEmpty()) {
            sb.append(" proto=").append(sortedText(r.protos()));
        }
        if (!r.l7().isEmpty()) {
            sb.append(" l7=").append(sortedText(r.l7().stream().map(L7Protocol::wireName).toList()));
        }
        sb.append('\n');
    }

    private static String sortedText(List<?> values) {
        return values.stream().map(Object::toString).sorted().collect(Collectors.joining(","));
    }
}
