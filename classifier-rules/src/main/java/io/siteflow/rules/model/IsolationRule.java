package io.siteflow.rules.model;

import io.siteflow.model.L7Protocol;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * One deny or allow rule of an isolation policy. Its conditions are AND'd; a list's values are OR'd; an empty list
 * is no condition. {@code from} is the flow's initiator, {@code to} its responder. Immutable.
 *
 * @param name       unique among the policy's rules
 * @param from       groups of the initiator (one of them suffices), never empty
 * @param to         groups of the responder, never empty
 * @param categories the flow's category (classification), empty for any
 * @param ports      the responder's port, empty for any
 * @param protos     IANA protocol numbers, empty for any
 * @param l7         the detected L7 protocol: only a flow whose L7 was detected and is listed matches; empty for any
 * @param origin     {@code file:line:column} of the rule
 */
public record IsolationRule(String name, List<String> from, List<String> to, List<Category> categories,
                            List<PortRange> ports, List<Integer> protos, List<L7Protocol> l7, String origin) {
    public IsolationRule {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(origin, "origin");
        from = List.copyOf(from);
        to = List.copyOf(to);
        categories = List.copyOf(categories);
        ports = List.copyOf(ports);
        protos = List.copyOf(protos);
        l7 = List.copyOf(l7);
    }

    /**
     * The conditions a flow fails, each as {@code key: actual not in [values]}, in the order from, to, categories,
     * ports, proto, l7; empty when the rule matches.
     *
     * @param fromGroups the initiator's groups (with {@code any}, and {@code unlisted} where it applies)
     * @param toGroups   the responder's groups
     */
    public List<String> failed(String client, List<String> fromGroups, String server, List<String> toGroups,
                               Category category, int port, int proto, L7Protocol detected) {
        List<String> out = new ArrayList<>(0);
        if (from.stream().noneMatch(fromGroups::contains)) {
            out.add("from: " + client + " " + groupsText(fromGroups) + " not in " + list(from));
        }
        if (to.stream().noneMatch(toGroups::contains)) {
            out.add("to: " + server + " " + groupsText(toGroups) + " not in " + list(to));
        }
        if (!categories.isEmpty() && !categories.contains(category)) {
            out.add("categories: " + category + " not in " + list(categories));
        }
        if (!ports.isEmpty() && ports.stream().noneMatch(r -> r.contains(port))) {
            out.add("ports: " + port + " not in " + list(ports));
        }
        if (!protos.isEmpty() && !protos.contains(proto)) {
            out.add("proto: " + Protocols.name(proto) + " not in "
                    + list(protos.stream().map(Protocols::name).toList()));
        }
        if (!l7.isEmpty() && (detected == L7Protocol.UNKNOWN || !l7.contains(detected))) {
            out.add("l7: " + (detected == L7Protocol.UNKNOWN ? "none detected" : detected.wireName()) + " not in "
                    + list(l7.stream().map(L7Protocol::wireName).toList()));
        }
        return out;
    }

    /** True when this rule matches every flow {@code later} would (group lists compared as sets, {@code any} covering all). */
    public boolean shadows(IsolationRule later) {
        return covers(from, later.from) && covers(to, later.to) && covers(categories, later.categories)
                && coversPorts(later.ports) && covers(protos, later.protos) && covers(l7, later.l7);
    }

    private static <T> boolean covers(List<T> mine, List<T> theirs) {
        if (mine.isEmpty() || mine.contains(IsolationPolicy.ANY)) {
            return true;
        }
        return !theirs.isEmpty() && mine.containsAll(theirs);
    }

    private boolean coversPorts(List<PortRange> theirs) {
        if (ports.isEmpty()) {
            return true;
        }
        if (theirs.isEmpty()) {
            return false;
        }
        for (PortRange r : theirs) {
            for (int p = r.low(); p <= r.high(); p++) {
                final int port = p;
                if (ports.stream().noneMatch(m -> m.contains(port))) {
                    return false;
                }
            }
        }
        return true;
    }

    private static String groupsText(List<String> groups) {
        List<String> named = groups.stream().filter(g -> !g.equals(IsolationPolicy.ANY)).toList();
        return named.isEmpty() ? "(no group)" : "(" + String.join(", ", named) + ")";
    }

    private static String list(List<?> values) {
        return values.stream().map(Object::toString).collect(Collectors.joining(", ", "[", "]"));
    }
}
