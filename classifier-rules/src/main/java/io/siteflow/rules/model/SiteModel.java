package io.siteflow.rules.model;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A validated site model ({@code sites.yaml}) with the effective rule list: the user's rules followed by the
 * default rule set unless {@code defaults: none}. Immutable and thread-safe; build it with
 * {@code io.siteflow.rules.load.SiteModelLoader}.
 *
 * @param threshold     required DB share of a server's cross-site bytes, 0..1, exact as written
 * @param minCrossBytes least cross-site bytes a verdict needs (else INSUFFICIENT)
 * @param defaults      which default rule set was appended
 * @param sites         sites in file order
 * @param hosts         listed hosts in file order
 * @param rules         effective rules in evaluation order
 * @param audit         explicit audit pairs; empty means "derive them from roles"
 * @param version       {@code sha256:<hex>} of the canonical form of everything above
 * @param dbCallBudget  {@code dbCallBudget.networkShare}: the largest part of a DB call's median the distance may
 *                      cost (0..1) before a verdict raises a {@code DB_CALLS} alert; empty when not set
 * @param rttLimitMs    {@code rttLimitMs}: the site model's own RTT limit, ms (0 < it <= 10 000, at most 3 decimal
 *                      places); empty when not set. {@link #rttLimit()} is the limit in force
 * @param isolation     the {@code isolation:} block, empty when the model has none
 */
public record SiteModel(BigDecimal threshold, long minCrossBytes, DefaultRules defaults, List<Site> sites,
                        List<Host> hosts, List<Rule> rules, List<AuditSpec> audit, String version,
                        Optional<BigDecimal> dbCallBudget, Optional<BigDecimal> rttLimitMs,
                        Optional<IsolationPolicy> isolation) {
    public static final BigDecimal DEFAULT_THRESHOLD = new BigDecimal("0.90");
    public static final long DEFAULT_MIN_CROSS_BYTES = 1_000_000L;

    public SiteModel {
        Objects.requireNonNull(threshold, "threshold");
        Objects.requireNonNull(defaults, "defaults");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(dbCallBudget, "dbCallBudget");
        Objects.requireNonNull(rttLimitMs, "rttLimitMs");
        Objects.requireNonNull(isolation, "isolation");
        sites = List.copyOf(sites);
        hosts = List.copyOf(hosts);
        rules = List.copyOf(rules);
        audit = List.copyOf(audit);
    }

    /** A site model without an isolation policy. */
    public SiteModel(BigDecimal threshold, long minCrossBytes, DefaultRules defaults, List<Site> sites,
                     List<Host> hosts, List<Rule> rules, List<AuditSpec> audit, String version,
                     Optional<BigDecimal> dbCallBudget, Optional<BigDecimal> rttLimitMs) {
        this(threshold, minCrossBytes, defaults, sites, hosts, rules, audit, version, dbCallBudget, rttLimitMs,
                Optional.empty());
    }

    /** A site model without a DB call budget or RTT limit of its own. */
    public SiteModel(BigDecimal threshold, long minCrossBytes, DefaultRules defaults, List<Site> sites,
                     List<Host> hosts, List<Rule> rules, List<AuditSpec> audit, String version) {
        this(threshold, minCrossBytes, defaults, sites, hosts, rules, audit, version, Optional.empty(),
                Optional.empty());
    }

    /** The RTT limit in force: min(Oracle's 10 ms, {@code rttLimitMs} when set). */
    public RttLimit rttLimit() {
        return RttLimit.of(rttLimitMs);
    }

    /** The site of that name, {@link Site#UNKNOWN} when there is none. */
    public Site site(String name) {
        for (Site s : sites) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return Site.UNKNOWN;
    }

    /** The rule of that name, {@link Rule#NONE} when there is none. */
    public Rule rule(String name) {
        for (Rule r : rules) {
            if (r.name().equals(name)) {
                return r;
            }
        }
        return Rule.NONE;
    }
}
