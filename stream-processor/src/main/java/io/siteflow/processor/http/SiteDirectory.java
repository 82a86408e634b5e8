package io.siteflow.processor.http;

import io.siteflow.model.Cidr;
import io.siteflow.model.IpAddresses;
import io.siteflow.processor.query.RulesInfo;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.DefaultRules;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.RttLimit;
import io.siteflow.rules.model.Site;
import io.siteflow.rules.model.SiteModel;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/**
 * Host names, roles and sites of addresses, read from the site model in force ({@link RulesInfo#yaml()}).
 * A model that does not load gives an empty directory (every address unknown) rather than an error: the
 * dashboard then shows bare addresses. Immutable and thread-safe.
 */
public final class SiteDirectory {
    /** One listed host as the API shows it. */
    public record HostInfo(String address, String name, String role, String site) {
    }

    private final Optional<SiteModel> model;

    private SiteDirectory(Optional<SiteModel> model) {
        this.model = model;
    }

    /** The directory of a rule set (never throws; a bad model gives an empty directory). */
    public static SiteDirectory of(RulesInfo rules) {
        return new SiteDirectory(SiteModelLoader.parse("sites.yaml", rules.yaml()).model());
    }

    /** The model's RTT limit in force; Oracle's 10 ms when the model does not load. */
    public RttLimit rttLimit() {
        return model.map(SiteModel::rttLimit).orElse(RttLimit.ORACLE);
    }

    /** Listed hosts in file order. */
    public List<HostInfo> hosts() {
        return model.map(m -> m.hosts().stream()
                .map(h -> new HostInfo(h.address(), h.name(), h.role().name(), h.site().name())).toList())
                .orElse(List.of());
    }

    /** The listed host of an address, if any. */
    public Optional<Host> host(String address) {
        return model.flatMap(m -> m.hosts().stream().filter(h -> h.address().equals(address)).findFirst());
    }

    /** The site whose networks hold the address (longest prefix); {@link Site#UNKNOWN} when none or unparsable. */
    public Site siteOf(String address) {
        if (model.isEmpty()) {
            return Site.UNKNOWN;
        }
        long[] a;
        try {
            a = IpAddresses.parse(address);
        } catch (IllegalArgumentException e) {
            return Site.UNKNOWN;
        }
        Site best = Site.UNKNOWN;
        int bestBits = -1;
        for (Site s : model.get().sites()) {
            for (Cidr c : s.cidrs()) {
                if (c.contains(a[0], a[1]) && c.prefixLength() > bestBits) {
                    best = s;
                    bestBits = c.prefixLength();
                }
            }
        }
        return best;
    }

    /** The least cross-site bytes a verdict needs, the default when the model does not load. */
    public long minCrossBytes() {
        return model.map(SiteModel::minCrossBytes).orElse(SiteModel.DEFAULT_MIN_CROSS_BYTES);
    }

    /** Which built-in rules follow the user's; FMW (the loader's default) when the model does not load. */
    public DefaultRules defaultRules() {
        return model.map(SiteModel::defaults).orElse(DefaultRules.FMW);
    }

    /** The model's threshold, the default when the model does not load. */
    public BigDecimal threshold() {
        return model.map(SiteModel::threshold).orElse(SiteModel.DEFAULT_THRESHOLD);
    }
}
