package io.siteflow.rules.importer;

import io.siteflow.model.Cidr;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Writes an {@link ImportedModel} as {@code sites.yaml} (docs/RULES.md): a header, {@code defaults: fmw}, the
 * sites in the order given, hosts and rules in flow style, each entry after its {@code # source} comment lines,
 * then the {@code isolation:} block when the import was asked for it.
 * The text depends on the model only: equal models give byte-identical files. Stateless.
 */
public final class SitesYamlWriter {
    private SitesYamlWriter() {
    }

    public static String write(ImportedModel m) {
        StringBuilder sb = new StringBuilder();
        sb.append("# siteflow site model of the WebLogic domain ").append(m.domainName())
                .append(", made by `siteflow sites import`.\n")
                .append("# Each entry's comment names the domain element it came from; re-run the import when the\n")
                .append("# domain changes (`siteflow sites diff` shows what changed). The domain's port rules come\n")
                .append("# before the Oracle FMW default rules.\n")
                .append("defaults: fmw\n")
                .append("sites:\n");
        for (Map.Entry<String, List<Cidr>> s : m.sites().entrySet()) {
            sb.append("  ").append(s.getKey()).append(": { cidrs: ").append(list(s.getValue().stream()
                    .map(Cidr::toString).toList())).append(" }\n");
        }
        sb.append(m.hosts().isEmpty() ? "hosts: []\n" : "hosts:\n");
        for (ImportedModel.HostEntry h : m.hosts()) {
            comments(sb, h.sources());
            sb.append("  - { address: ").append(scalar(h.address())).append(", name: ").append(scalar(h.name()))
                    .append(", role: ").append(h.role());
            if (!h.cluster().isEmpty()) {
                sb.append(", cluster: ").append(scalar(h.cluster()));
            }
            sb.append(" }\n");
        }
        sb.append(m.rules().isEmpty() ? "rules: []\n" : "rules:\n");
        for (ImportedModel.RuleEntry r : m.rules()) {
            comments(sb, r.sources());
            sb.append("  - { name: ").append(r.name()).append(", category: ").append(r.category().name());
            if (!r.proto().isEmpty()) {
                sb.append(", proto: ").append(r.proto());
            }
            if (!r.ports().isEmpty()) {
                sb.append(", ports: ").append(list(r.ports().stream().map(String::valueOf).toList()));
            }
            if (!r.l7().isEmpty()) {
                sb.append(", l7: ").append(list(r.l7()));
            }
            if (!r.peerRoles().isEmpty()) {
                sb.append(", peerRoles: ").append(list(r.peerRoles()));
            }
            sb.append(" }\n");
        }
        return sb.append(m.isolation()).toString();
    }

    private static void comments(StringBuilder sb, List<String> sources) {
        sources.forEach(s -> sb.append("  # ").append(s.replace('\n', ' ')).append('\n'));
    }

    private static String list(List<String> items) {
        return items.stream().map(SitesYamlWriter::scalar).collect(Collectors.joining(", ", "[", "]"));
    }

    /** Plain when safe in flow style, else double-quoted (IPv6 addresses and networks have colons). */
    static String scalar(String s) {
        if (s.matches("[A-Za-z0-9._/-]+") && !s.matches("(?i)(true|false|yes|no|on|off|null|~)")) {
            return s;
        }
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
