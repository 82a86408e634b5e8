package io.siteflow.rules.importer;

import io.siteflow.rules.model.Category;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Collects the domain's ports by category and writes one rule per (category, port), ordered DB, JMS,
 * COHERENCE, ADMIN, CLUSTER, OTHER and by port. A rule names the roles of the hosts that listen on the port
 * ({@code peerRoles}), except Coherence rules, which like the FMW default hold for any peer and protocol.
 */
final class PortRules {
    private static final List<Category> ORDER = List.of(Category.DB, Category.JMS, Category.COHERENCE,
            Category.ADMIN, Category.CLUSTER, Category.OTHER);

    private record Key(Category category, int port) {
    }

    private static final class Draft {
        final Set<String> roles = new TreeSet<>();
        final Set<String> sources = new TreeSet<>();
    }

    private final Map<Key, Draft> drafts = new TreeMap<>(Comparator.comparingInt((Key k) -> ORDER.indexOf(k.category))
            .thenComparingInt(Key::port));

    /** Adds a port (0 is ignored: not written in the domain) heard on hosts of {@code role}. */
    void add(Category category, int port, String role, String source) {
        if (port == 0) {
            return;
        }
        Draft d = drafts.computeIfAbsent(new Key(category, port), k -> new Draft());
        d.roles.add(role);
        d.sources.add(source);
    }

    /**
     * The rules; a port rule whose peer roles no generated host has is left out (its hosts are not in the model).
     */
    List<ImportedModel.RuleEntry> rules(Set<String> presentRoles) {
        List<ImportedModel.RuleEntry> out = new ArrayList<>();
        drafts.forEach((k, d) -> {
            boolean anyPeer = k.category == Category.COHERENCE;
            List<String> roles = anyPeer ? List.of() : d.roles.stream().filter(presentRoles::contains).toList();
            if (anyPeer || !roles.isEmpty()) {
                out.add(new ImportedModel.RuleEntry("domain-" + k.category.name().toLowerCase(Locale.ROOT) + "-" + k.port,
                        k.category, anyPeer ? "" : "tcp", List.of(k.port), List.of(), roles, List.copyOf(d.sources)));
            }
        });
        return out;
    }

    /** The category of a channel's traffic: by its name for JMS channels, else by its protocol. */
    static Category channelCategory(String channelName, String protocol) {
        if (channelName.toLowerCase(Locale.ROOT).contains("jms")) {
            return Category.JMS;
        }
        return switch (protocol.toLowerCase(Locale.ROOT)) {
            case "admin" -> Category.ADMIN;
            case "t3", "t3s", "iiop", "iiops", "http", "https", "cluster-broadcast", "cluster-broadcast-secure" ->
                    Category.CLUSTER;
            default -> Category.OTHER;
        };
    }
}
