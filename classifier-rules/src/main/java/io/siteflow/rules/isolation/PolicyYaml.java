package io.siteflow.rules.isolation;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Writes an {@code isolation:} block of {@code sites.yaml} (docs/RULES.md, "Isolation policy"): groups and allow rules
 * in flow style, one a line, each rule after its comment lines, as {@link IsolationProposal} and {@code sites import
 * --isolation} print it. The text depends on the arguments only. Stateless.
 */
public final class PolicyYaml {
    private PolicyYaml() {
    }

    /**
     * A group.
     *
     * @param name      its name
     * @param selectors selector key ({@code hosts}, {@code roles}, {@code sites}, {@code cidrs}, {@code clusters}) →
     *                  values, written in the map's order
     */
    public record Group(String name, Map<String, List<String>> selectors) {
        public Group {
            Objects.requireNonNull(name, "name");
            selectors = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(selectors));
        }
    }

    /**
     * An allow rule; an empty list is no condition.
     *
     * @param comments   lines written before it, without {@code #}
     * @param categories category names
     * @param ports      ports or ranges as text ({@code 1521}, {@code 2483-2484}), written unquoted
     * @param protos     protocol names ({@code tcp}, {@code udp}, ...)
     * @param l7         L7 wire names
     */
    public record Rule(List<String> comments, String name, List<String> from, List<String> to, List<String> categories,
                       List<String> ports, List<String> protos, List<String> l7) {
        public Rule {
            Objects.requireNonNull(name, "name");
            comments = List.copyOf(comments);
            from = List.copyOf(from);
            to = List.copyOf(to);
            categories = List.copyOf(categories);
            ports = List.copyOf(ports);
            protos = List.copyOf(protos);
            l7 = List.copyOf(l7);
        }
    }

    /**
     * The block, from {@code isolation:} to its last line, each line ending in a newline.
     *
     * @param header  comment lines before {@code isolation:}, without {@code #}
     * @param scope   {@code cross-site} or {@code all}
     * @param closing comment lines after the rules, without {@code #}
     */
    public static String block(List<String> header, String scope, List<Group> groups, List<Rule> allow,
                               List<String> closing) {
        StringBuilder sb = new StringBuilder();
        header.forEach(c -> comment(sb, "", c));
        sb.append("isolation:\n");
        sb.append("  scope: ").append(scope).append('\n');
        sb.append("  default: deny\n");
        sb.append(groups.isEmpty() ? "  groups: {}\n" : "  groups:\n");
        for (Group g : groups) {
            sb.append("    ").append(scalar(g.name())).append(": ").append(g.selectors().entrySet().stream()
                    .map(e -> e.getKey() + ": " + list(e.getValue())).collect(Collectors.joining(", ", "{ ", " }")))
                    .append('\n');
        }
        sb.append(allow.isEmpty() ? "  allow: []\n" : "  allow:\n");
        for (Rule r : allow) {
            r.comments().forEach(c -> comment(sb, "    ", c));
            sb.append("    - { name: ").append(scalar(r.name())).append(", from: ").append(groupList(r.from()))
                    .append(", to: ").append(groupList(r.to()));
            condition(sb, "categories", r.categories());
            if (!r.ports().isEmpty()) {
                sb.append(", ports: [").append(String.join(", ", r.ports())).append(']');
            }
            condition(sb, "proto", r.protos());
            condition(sb, "l7", r.l7());
            sb.append(" }\n");
        }
        closing.forEach(c -> comment(sb, "  ", c));
        return sb.toString();
    }

    /** Plain when safe in flow style, else double-quoted. */
    public static String scalar(String s) {
        if (s.matches("[A-Za-z0-9._/-]+") && !s.matches("(?i)(true|false|yes|no|on|off|null|~|y|n)")
                && !s.matches("[-+]?[0-9][0-9._]*([eE][-+]?[0-9]+)?")) {
            return s;
        }
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    private static void condition(StringBuilder sb, String key, List<String> values) {
        if (!values.isEmpty()) {
            sb.append(", ").append(key).append(": ").append(list(values));
        }
    }

    private static String groupList(List<String> groups) {
        return groups.size() == 1 ? scalar(groups.get(0)) : list(groups);
    }

    private static String list(List<String> values) {
        return values.stream().map(PolicyYaml::scalar).collect(Collectors.joining(", ", "[", "]"));
    }

    private static void comment(StringBuilder sb, String indent, String text) {
        sb.append(indent).append("# ").append(text.replace('\n', ' ')).append('\n');
    }
}
