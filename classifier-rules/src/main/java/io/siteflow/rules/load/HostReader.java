package io.siteflow.rules.load;

import io.siteflow.model.IpAddresses;
import io.siteflow.rules.model.AuditSpec;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.Role;
import io.siteflow.rules.model.Site;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads {@code hosts:} and {@code audit:}. Not thread-safe. */
final class HostReader {
    private static final List<String> HOST_KEYS = List.of("address", "name", "role", "cluster");
    private static final List<String> AUDIT_KEYS = List.of("server", "remoteSite");
    private static final List<String> WELL_KNOWN_ROLES = List.of("db", "app-server", "admin", "jms-server",
            "coherence", "frontend");

    private final Reading reading;
    private final List<Site> sites;

    HostReader(Reading reading, List<Site> sites) {
        this.reading = reading;
        this.sites = sites;
    }

    List<Host> hosts(Reading.At at) {
        List<Host> hosts = new ArrayList<>();
        Map<String, String> seen = new HashMap<>();
        for (Reading.At item : reading.items(at)) {
            reading.mapping(item, HOST_KEYS, List.of("address", "role")).ifPresent(f -> {
                if (!f.containsKey("address") || !f.containsKey("role")) {
                    return;
                }
                Optional<long[]> addr = address(f.get("address"));
                Optional<String> role = role(f.get("role"));
                Optional<String> name = f.containsKey("name")
                        ? reading.scalar(f.get("name")).map(YamlNode.Scalar::text) : Optional.of("");
                Optional<String> cluster = f.containsKey("cluster") ? cluster(f.get("cluster")) : Optional.of("");
                if (addr.isEmpty() || role.isEmpty() || name.isEmpty() || cluster.isEmpty()) {
                    return;
                }
                long[] a = addr.get();
                String text = IpAddresses.format(a[0], a[1]);
                String first = seen.putIfAbsent(text, item.path());
                if (first != null) {
                    reading.error(f.get("address"), "duplicate host address " + text + " (also " + first + ")");
                    return;
                }
                Site site = SiteReader.siteOf(sites, a[0], a[1]);
                if (!site.isKnown() && !sites.isEmpty()) {
                    reading.error(f.get("address"), text + " is outside every site");
                }
                String n = name.get().isEmpty() ? text : name.get();
                hosts.add(new Host(text, a[0], a[1], n, new Role(role.get()), site, cluster.get()));
            });
        }
        return hosts;
    }

    private Optional<long[]> address(Reading.At at) {
        return reading.scalar(at).flatMap(s -> {
            try {
                return Optional.of(IpAddresses.parse(s.text()));
            } catch (IllegalArgumentException e) {
                reading.error(at, e.getMessage());
                return Optional.empty();
            }
        });
    }

    private Optional<String> cluster(Reading.At at) {
        return reading.scalar(at).flatMap(s -> {
            if (RuleReader.NAME.matcher(s.text()).matches()) {
                return Optional.of(s.text());
            }
            reading.error(at, Reading.quote(s.text()) + " is not a cluster name (letters, digits, '.', '_', '-')");
            return Optional.empty();
        });
    }

    private Optional<String> role(Reading.At at) {
        return reading.scalar(at).flatMap(s -> {
            if (RuleReader.NAME.matcher(s.text()).matches()) {
                if (!WELL_KNOWN_ROLES.contains(s.text())) {
                    KeySuggester.nearest(s.text(), WELL_KNOWN_ROLES).ifPresent(w -> reading.warning(at,
                            Reading.quote(s.text()) + " is not a well-known role, did you mean " + Reading.quote(w) + "?"));
                }
                return Optional.of(s.text());
            }
            reading.error(at, Reading.quote(s.text()) + " is not a role name (letters, digits, '.', '_', '-')");
            return Optional.empty();
        });
    }

    List<AuditSpec> audit(Reading.At at, List<Host> hosts) {
        List<AuditSpec> out = new ArrayList<>();
        List<String> siteNames = sites.stream().map(Site::name).toList();
        for (Reading.At item : reading.items(at)) {
            reading.mapping(item, AUDIT_KEYS, AUDIT_KEYS).ifPresent(f -> {
                if (f.size() < 2) {
                    return;
                }
                Optional<Host> server = reading.scalar(f.get("server")).flatMap(s -> host(f.get("server"), s.text(), hosts));
                Optional<Site> remote = reading.scalar(f.get("remoteSite")).flatMap(s -> {
                    Optional<Site> site = sites.stream().filter(x -> x.name().equals(s.text())).findFirst();
                    if (site.isEmpty()) {
                        reading.error(f.get("remoteSite"), RuleReader.unknownSite(s.text(), siteNames));
                    }
                    return site;
                });
                if (server.isPresent() && remote.isPresent()) {
                    if (server.get().site().equals(remote.get())) {
                        reading.error(f.get("remoteSite"), "server " + server.get().address()
                                + " is itself in site " + Reading.quote(remote.get().name()));
                    } else {
                        out.add(new AuditSpec(server.get(), remote.get()));
                    }
                }
            });
        }
        return out;
    }

    private Optional<Host> host(Reading.At at, String text, List<Host> hosts) {
        String canonical = text;
        try {
            long[] a = IpAddresses.parse(text);
            canonical = IpAddresses.format(a[0], a[1]);
        } catch (IllegalArgumentException notAnAddress) {
            // a host name, looked up below
        }
        for (Host h : hosts) {
            if (h.address().equals(canonical) || h.name().equals(text)) {
                return Optional.of(h);
            }
        }
        reading.error(at, Reading.quote(text) + " is not a listed host (address or name)");
        return Optional.empty();
    }
}
