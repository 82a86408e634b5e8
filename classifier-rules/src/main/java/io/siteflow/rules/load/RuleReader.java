package io.siteflow.rules.load;

import io.siteflow.model.Cidr;
import io.siteflow.model.L7Protocol;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.CidrMatch;
import io.siteflow.rules.model.L7Match;
import io.siteflow.rules.model.Match;
import io.siteflow.rules.model.PeerRoleMatch;
import io.siteflow.rules.model.PeerSiteMatch;
import io.siteflow.rules.model.PortMatch;
import io.siteflow.rules.model.PortRange;
import io.siteflow.rules.model.ProtoMatch;
import io.siteflow.rules.model.Protocols;
import io.siteflow.rules.model.Role;
import io.siteflow.rules.model.Rule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Reads the {@code rules:} list into {@link Rule}s, reporting every bad value. Not thread-safe. */
final class RuleReader {
    static final List<String> KEYS = List.of("name", "category", "proto", "ports", "peerRoles", "peerSites",
            "cidrs", "l7");
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final Pattern PORT = Pattern.compile("\\d{1,9}");
    private static final Pattern RANGE = Pattern.compile("(\\d{1,9})-(\\d{1,9})");
    private static final List<String> L7_NAMES = Arrays.stream(L7Protocol.values())
            .filter(p -> p != L7Protocol.UNKNOWN).map(L7Protocol::wireName).collect(Collectors.toList());

    /** A rule with the node it was read from. */
    record ReadRule(Rule rule, Reading.At at) {
    }

    private final Reading reading;
    private final List<String> siteNames;
    private final boolean builtIn;

    RuleReader(Reading reading, List<String> siteNames, boolean builtIn) {
        this.reading = reading;
        this.siteNames = siteNames;
        this.builtIn = builtIn;
    }

    List<ReadRule> read(Reading.At list) {
        List<ReadRule> out = new ArrayList<>();
        for (Reading.At item : reading.items(list)) {
            rule(item).ifPresent(r -> out.add(new ReadRule(r, item)));
        }
        return out;
    }

    private Optional<Rule> rule(Reading.At at) {
        Optional<Map<String, Reading.At>> fields = reading.mapping(at, KEYS, List.of("name", "category"));
        if (fields.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Reading.At> f = fields.get();
        int before = errorCount();
        String name = f.containsKey("name") ? name(f.get("name")) : "";
        Category category = f.containsKey("category") ? category(f.get("category")) : Category.UNKNOWN;
        List<Match> matches = new ArrayList<>();
        optional(f, "proto").map(this::proto).ifPresent(matches::add);
        optional(f, "ports").map(this::ports).ifPresent(matches::add);
        optional(f, "peerRoles").map(this::roles).ifPresent(matches::add);
        optional(f, "peerSites").map(this::sites).ifPresent(matches::add);
        optional(f, "cidrs").map(this::cidrs).ifPresent(matches::add);
        optional(f, "l7").map(this::l7).ifPresent(matches::add);
        if (errorCount() > before || !f.containsKey("name") || !f.containsKey("category")) {
            return Optional.empty();
        }
        String origin = reading.diagnostics().file() + ":" + at.node().line() + ":" + at.node().column();
        return Optional.of(new Rule(name, category, matches, origin, builtIn));
    }

    private int errorCount() {
        return reading.diagnostics().errorCount();
    }

    private static Optional<Reading.At> optional(Map<String, Reading.At> f, String key) {
        return Optional.ofNullable(f.get(key));
    }

    private String name(Reading.At at) {
        String n = reading.scalar(at).map(YamlNode.Scalar::text).orElse("");
        if (!n.isEmpty() && !NAME.matcher(n).matches()) {
            reading.error(at, Reading.quote(n) + " is not a rule name (letters, digits, '.', '_', '-')");
        }
        return n;
    }

    Category category(Reading.At at) {
        String c = reading.scalar(at).map(YamlNode.Scalar::text).orElse("");
        if (!c.isEmpty() && !Category.isName(c)) {
            reading.error(at, Reading.quote(c) + " is not a category (" + Arrays.stream(Category.all())
                    .map(Enum::name).collect(Collectors.joining(", ")) + ")");
        }
        return Category.parse(c.isEmpty() ? "UNKNOWN" : c);
    }

    ProtoMatch proto(Reading.At at) {
        List<Integer> protos = new ArrayList<>();
        for (Reading.At item : reading.nonEmptyItems(at)) {
            reading.scalar(item).ifPresent(s -> {
                int p = Protocols.parse(s.text());
                if (p < 0) {
                    reading.error(item, Reading.quote(s.text()) + " is not a protocol (tcp, udp, icmp, icmpv6 or 0-255)");
                } else if (!protos.contains(p)) {
                    protos.add(p);
                }
            });
        }
        return new ProtoMatch(protos);
    }

    PortMatch ports(Reading.At at) {
        List<PortRange> ranges = new ArrayList<>();
        for (Reading.At item : reading.nonEmptyItems(at)) {
            reading.scalar(item).ifPresent(s -> port(item, s.text()).ifPresent(ranges::add));
        }
        return new PortMatch(ranges);
    }

    private Optional<PortRange> port(Reading.At at, String text) {
        if (PORT.matcher(text).matches()) {
            int p = Integer.parseInt(text);
            if (p >= 1 && p <= 65535) {
                return Optional.of(new PortRange(p, p));
            }
        }
        var m = RANGE.matcher(text);
        if (m.matches()) {
            int lo = Integer.parseInt(m.group(1));
            int hi = Integer.parseInt(m.group(2));
            if (lo >= 1 && hi <= 65535 && lo <= hi) {
                return Optional.of(new PortRange(lo, hi));
            }
            reading.error(at, Reading.quote(text) + " is not a port range (low-high, 1-65535)");
            return Optional.empty();
        }
        reading.error(at, Reading.quote(text) + " is not a port (1-65535)");
        return Optional.empty();
    }

    private PeerRoleMatch roles(Reading.At at) {
        List<Role> roles = new ArrayList<>();
        for (Reading.At item : reading.nonEmptyItems(at)) {
            reading.scalar(item).ifPresent(s -> {
                if (!NAME.matcher(s.text()).matches()) {
                    reading.error(item, Reading.quote(s.text()) + " is not a role name (letters, digits, '.', '_', '-')");
                } else {
                    roles.add(new Role(s.text()));
                }
            });
        }
        return new PeerRoleMatch(roles);
    }

    private PeerSiteMatch sites(Reading.At at) {
        List<String> sites = new ArrayList<>();
        for (Reading.At item : reading.nonEmptyItems(at)) {
            reading.scalar(item).ifPresent(s -> {
                if (siteNames.contains(s.text())) {
                    sites.add(s.text());
                } else {
                    reading.error(item, unknownSite(s.text(), siteNames));
                }
            });
        }
        return new PeerSiteMatch(sites);
    }

    static String unknownSite(String name, List<String> siteNames) {
        return KeySuggester.nearest(name, siteNames)
                .map(s -> "unknown site " + Reading.quote(name) + ", did you mean " + Reading.quote(s) + "?")
                .orElse("unknown site " + Reading.quote(name) + " (sites: " + String.join(", ", siteNames) + ")");
    }

    private CidrMatch cidrs(Reading.At at) {
        List<Cidr> cidrs = new ArrayList<>();
        for (Reading.At item : reading.nonEmptyItems(at)) {
            reading.scalar(item).ifPresent(s -> {
                try {
                    cidrs.add(Cidr.parse(s.text()));
                } catch (IllegalArgumentException e) {
                    reading.error(item, e.getMessage());
                }
            });
        }
        return new CidrMatch(cidrs);
    }

    L7Match l7(Reading.At at) {
        List<L7Protocol> protos = new ArrayList<>();
        for (Reading.At item : reading.nonEmptyItems(at)) {
            reading.scalar(item).ifPresent(s -> {
                L7Protocol p = L7Protocol.fromWireName(s.text());
                if (p == L7Protocol.UNKNOWN) {
                    reading.error(item, KeySuggester.nearest(s.text(), L7_NAMES)
                            .map(n -> Reading.quote(s.text()) + " is not an L7 protocol, did you mean " + Reading.quote(n) + "?")
                            .orElse(Reading.quote(s.text()) + " is not an L7 protocol (" + String.join(", ", L7_NAMES) + ")"));
                } else if (!protos.contains(p)) {
                    protos.add(p);
                }
            });
        }
        return new L7Match(protos);
    }
}
