package io.siteflow.rules.load;

import io.siteflow.model.Cidr;
import io.siteflow.rules.model.Site;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code sites:} and checks that the sites' networks do not collide: the same network in two sites is
 * an error, a network inside another site's network a warning (the longest prefix wins). Not thread-safe.
 */
final class SiteReader {
    private final Reading reading;

    SiteReader(Reading reading) {
        this.reading = reading;
    }

    private record Placed(Site site, Cidr cidr, Reading.At at) {
    }

    List<Site> read(Reading.At at) {
        List<Site> sites = new ArrayList<>();
        List<Placed> placed = new ArrayList<>();
        for (Map.Entry<YamlNode.Key, Reading.At> e : reading.namedEntries(at).orElse(List.of())) {
            String name = e.getKey().text();
            if (!RuleReader.NAME.matcher(name).matches()) {
                reading.diagnostics().error(e.getKey(), e.getValue().path(),
                        Reading.quote(name) + " is not a site name (letters, digits, '.', '_', '-')");
            }
            List<Cidr> cidrs = new ArrayList<>();
            List<Reading.At> cidrNodes = new ArrayList<>();
            reading.mapping(e.getValue(), List.of("cidrs"), List.of()).ifPresent(f -> {
                if (f.containsKey("cidrs")) {
                    for (Reading.At item : reading.items(f.get("cidrs"))) {
                        cidr(item).ifPresent(c -> {
                            cidrs.add(c);
                            cidrNodes.add(item);
                        });
                    }
                }
            });
            if (cidrs.isEmpty()) {
                reading.diagnostics().error(e.getKey(), e.getValue().path(), "site has no cidrs");
            }
            Site site = new Site(name, cidrs);
            sites.add(site);
            for (int i = 0; i < cidrs.size(); i++) {
                checkOverlap(new Placed(site, cidrs.get(i), cidrNodes.get(i)), placed);
            }
        }
        return sites;
    }

    private java.util.Optional<Cidr> cidr(Reading.At item) {
        return reading.scalar(item).flatMap(s -> {
            try {
                return java.util.Optional.of(Cidr.parse(s.text()));
            } catch (IllegalArgumentException ex) {
                reading.error(item, ex.getMessage());
                return java.util.Optional.empty();
            }
        });
    }

    private void checkOverlap(Placed p, List<Placed> placed) {
        for (Placed q : placed) {
            if (q.site() == p.site() || q.cidr().v4() != p.cidr().v4()) {
                continue;
            }
            Cidr a = p.cidr();
            Cidr b = q.cidr();
            if (a.equals(b)) {
                reading.error(p.at(), a + " is also a network of site " + Reading.quote(q.site().name()));
            } else if (contains(a, b) || contains(b, a)) {
                reading.warning(p.at(), a + " overlaps " + b + " of site " + Reading.quote(q.site().name())
                        + "; the longest prefix wins");
            }
        }
        placed.add(p);
    }

    private static boolean contains(Cidr outer, Cidr inner) {
        return outer.bits() <= inner.bits() && outer.contains(inner.hi(), inner.lo());
    }

    /** The site whose network holding the address has the longest prefix, {@link Site#UNKNOWN} if none. */
    static Site siteOf(List<Site> sites, long hi, long lo) {
        Site best = Site.UNKNOWN;
        int bestBits = -1;
        for (Site s : sites) {
            for (Cidr c : s.cidrs()) {
                if (c.bits() > bestBits && c.contains(hi, lo)) {
                    best = s;
                    bestBits = c.bits();
                }
            }
        }
        return best;
    }
}
