package io.siteflow.rules.load;

import io.siteflow.rules.model.AuditSpec;
import io.siteflow.rules.model.DefaultRules;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.IsolationPolicy;
import io.siteflow.rules.model.PeerRoleMatch;
import io.siteflow.rules.model.Rule;
import io.siteflow.rules.model.Site;
import io.siteflow.rules.model.SiteModel;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Loads and validates {@code sites.yaml} (DESIGN.md, "Site model and rules"; reference in docs/RULES.md).
 * Every problem in the file is reported at once as a {@link Diagnostic} naming file, line, column and key
 * path; the model is only built when there is no error. Stateless and thread-safe.
 */
public final class SiteModelLoader {
    /** Decimal places a threshold may have (0.9, 0.95, 0.999999): its text in verdicts stays short. */
    public static final int MAX_THRESHOLD_DECIMALS = 6;
    /** Characters a line may have; checked before the YAML is parsed (a 2 MB line cost the parser 7.9 s). */
    public static final int MAX_LINE_CHARS = 65_536;
    /** Largest {@code rttLimitMs}, ms: 10 s of RTT is no site link. */
    public static final int MAX_RTT_LIMIT_MS = 10_000;
    static final List<String> TOP_KEYS = List.of("threshold", "minCrossBytes", "dbCallBudget", "rttLimitMs",
            "defaults", "sites", "hosts", "rules", "audit", "isolation");

    private SiteModelLoader() {
    }

    /**
     * Reads and validates a file; diagnostics name it as given.
     *
     * @throws IOException when the file cannot be read
     */
    public static LoadResult load(Path file) throws IOException {
        return parse(file.toString(), read(file));
    }

    /**
     * The text of a site model file, which must be UTF-8.
     *
     * @throws IOException when the file cannot be read, or (a {@link java.nio.charset.CharacterCodingException})
     *                     when it is not UTF-8: the message gives the byte offset, e.g. {@code byte 17: 0xFF is
     *                     not UTF-8 (a site model must be UTF-8)}
     */
    public static String read(Path file) throws IOException {
        return Utf8Text.decode(Files.readAllBytes(file));
    }

    /** Validates YAML text; {@code fileName} is what diagnostics call it. Never throws for bad content. */
    public static LoadResult parse(String fileName, String yaml) {
        Diagnostics d = new Diagnostics(fileName);
        if (!linesWithinBound(yaml, d)) {
            return new LoadResult(Optional.empty(), d.sorted());
        }
        Reading reading = new Reading(d);
        Optional<Map<String, Reading.At>> top = new YamlTreeReader(d).read(yaml)
                .flatMap(root -> reading.mapping(new Reading.At(root, ""), TOP_KEYS, List.of("sites")));
        if (top.isEmpty()) {
            return new LoadResult(Optional.empty(), d.sorted());
        }
        Map<String, Reading.At> f = top.get();
        BigDecimal threshold = opt(f, "threshold").map(a -> threshold(reading, a)).orElse(SiteModel.DEFAULT_THRESHOLD);
        long minCross = opt(f, "minCrossBytes").map(a -> minCross(reading, a)).orElse(SiteModel.DEFAULT_MIN_CROSS_BYTES);
        Optional<BigDecimal> budget = opt(f, "dbCallBudget").flatMap(a -> reading.mapping(a, List.of("networkShare"),
                List.of("networkShare"))).filter(m -> m.containsKey("networkShare"))
                .map(m -> threshold(reading, m.get("networkShare")));
        Optional<BigDecimal> rttLimit = opt(f, "rttLimitMs").flatMap(a -> rttLimitMs(reading, a));
        DefaultRules defaults = opt(f, "defaults").map(a -> defaults(reading, a)).orElse(DefaultRules.FMW);
        List<Site> sites = opt(f, "sites").map(a -> new SiteReader(reading).read(a)).orElse(List.of());
        HostReader hostReader = new HostReader(reading, sites);
        List<Host> hosts = opt(f, "hosts").map(hostReader::hosts).orElse(List.of());
        List<String> siteNames = sites.stream().map(Site::name).toList();
        List<RuleReader.ReadRule> userRules = opt(f, "rules")
                .map(a -> new RuleReader(reading, siteNames, false).read(a)).orElse(List.of());
        List<AuditSpec> audit = opt(f, "audit").map(a -> hostReader.audit(a, hosts)).orElse(List.of());
        Optional<IsolationPolicy> isolation = opt(f, "isolation")
                .flatMap(a -> new IsolationReader(reading, sites, hosts).read(a));
        List<Rule> rules = effectiveRules(reading, userRules, defaults);
        ShadowCheck.check(userRules, reading);
        checkRolesExist(reading, userRules, hosts);
        List<Diagnostic> all = new ArrayList<>(d.sorted());
        if (defaults == DefaultRules.FMW) {
            all.addAll(DefaultRuleSet.fmw().diagnostics);
        }
        if (all.stream().anyMatch(Diagnostic::isError)) {
            return new LoadResult(Optional.empty(), all);
        }
        String version = CanonicalForm.version(CanonicalForm.text(threshold, minCross, defaults, sites, hosts, rules,
                audit) + budget.map(b -> "dbCallBudget networkShare " + b.stripTrailingZeros().toPlainString() + "\n")
                .orElse("") + rttLimit.map(ms -> "rttLimitMs " + ms.stripTrailingZeros().toPlainString() + "\n")
                .orElse("") + isolation.map(p -> "isolation " + p.version() + "\n").orElse(""));
        return new LoadResult(Optional.of(new SiteModel(threshold, minCross, defaults, sites, hosts, rules, audit,
                version, budget, rttLimit, isolation)), all);
    }

    /** False, after reporting the first, when a line is longer than {@link #MAX_LINE_CHARS}. */
    private static boolean linesWithinBound(String text, Diagnostics d) {
        int line = 1;
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == '\n') {
                if (i - start > MAX_LINE_CHARS) {
                    d.error(line, MAX_LINE_CHARS + 1, "", "line is longer than " + MAX_LINE_CHARS + " characters ("
                            + (i - start) + ")");
                    return false;
                }
                line++;
                start = i + 1;
            }
        }
        return true;
    }

    private static Optional<Reading.At> opt(Map<String, Reading.At> f, String key) {
        return Optional.ofNullable(f.get(key));
    }

    private static List<Rule> effectiveRules(Reading reading, List<RuleReader.ReadRule> user, DefaultRules defaults) {
        List<Rule> builtIn = defaults == DefaultRules.FMW ? DefaultRuleSet.fmw().ruleList() : List.of();
        Map<String, String> names = new HashMap<>();
        builtIn.forEach(r -> names.put(r.name(), "a default rule"));
        List<Rule> out = new ArrayList<>();
        for (RuleReader.ReadRule r : user) {
            String first = names.putIfAbsent(r.rule().name(), r.at().path());
            if (first != null) {
                reading.error(r.at(), "duplicate rule name " + Reading.quote(r.rule().name()) + " (also " + first + ")");
            }
            out.add(r.rule());
        }
        out.addAll(builtIn);
        return out;
    }

    /** Warns about a {@code peerRoles} value that no listed host has: such a condition can never hold. */
    private static void checkRolesExist(Reading reading, List<RuleReader.ReadRule> rules, List<Host> hosts) {
        for (RuleReader.ReadRule r : rules) {
            r.rule().matches().stream().filter(m -> m instanceof PeerRoleMatch).map(m -> (PeerRoleMatch) m)
                    .flatMap(m -> m.roles().stream())
                    .filter(role -> hosts.stream().noneMatch(h -> h.role().equals(role)))
                    .forEach(role -> reading.warning(child(r.at(), "peerRoles"),
                            "no listed host has role " + Reading.quote(role.name())));
        }
    }

    private static Reading.At child(Reading.At at, String key) {
        YamlNode.Mapping m = (YamlNode.Mapping) at.node();
        return m.entries().stream().filter(e -> e.key().text().equals(key)).findFirst()
                .map(e -> new Reading.At(e.value(), Reading.child(at.path(), key))).orElse(at);
    }

    private static BigDecimal threshold(Reading reading, Reading.At at) {
        return reading.scalar(at).map(s -> {
            try {
                BigDecimal v = new BigDecimal(s.text());
                if (v.signum() >= 0 && v.compareTo(BigDecimal.ONE) <= 0 && s.type() != YamlNode.ScalarType.STRING) {
                    BigDecimal stripped = v.stripTrailingZeros();
                    if (stripped.scale() <= MAX_THRESHOLD_DECIMALS) { // as written unless its zeros are many
                        return v.scale() >= 0 && v.scale() <= MAX_THRESHOLD_DECIMALS ? v
                                : stripped.setScale(Math.max(stripped.scale(), 0));
                    }
                    reading.error(at, Reading.quote(s.text()) + " has more than " + MAX_THRESHOLD_DECIMALS
                            + " decimal places (a share such as 0.95)");
                    return SiteModel.DEFAULT_THRESHOLD;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            reading.error(at, Reading.quote(s.text()) + " is not a share (0..1)");
            return SiteModel.DEFAULT_THRESHOLD;
        }).orElse(SiteModel.DEFAULT_THRESHOLD);
    }

    /** {@code rttLimitMs}: a number of ms, {@code 0 < ms <= 10000}, at most 3 decimal places (whole µs). */
    private static Optional<BigDecimal> rttLimitMs(Reading reading, Reading.At at) {
        return reading.scalar(at).flatMap(s -> {
            BigDecimal v;
            try {
                v = s.type() == YamlNode.ScalarType.STRING ? null : new BigDecimal(s.text());
            } catch (NumberFormatException e) {
                v = null;
            }
            if (v == null || v.signum() <= 0 || v.compareTo(BigDecimal.valueOf(MAX_RTT_LIMIT_MS)) > 0) {
                reading.error(at, Reading.quote(s.text()) + " is not an RTT limit (ms, more than 0 and at most "
                        + MAX_RTT_LIMIT_MS + ")");
                return Optional.empty();
            }
            if (v.stripTrailingZeros().scale() > 3) {
                reading.error(at, Reading.quote(s.text())
                        + " has more than 3 decimal places (ms to the µs, such as 6.5)");
                return Optional.empty();
            }
            return Optional.of(v);
        });
    }

    private static long minCross(Reading reading, Reading.At at) {
        return reading.scalar(at).map(s -> {
            if (s.type() == YamlNode.ScalarType.INTEGER && s.text().matches("\\d{1,18}")) {
                return Long.parseLong(s.text());
            }
            reading.error(at, Reading.quote(s.text()) + " is not a byte count (0 or more)");
            return SiteModel.DEFAULT_MIN_CROSS_BYTES;
        }).orElse(SiteModel.DEFAULT_MIN_CROSS_BYTES);
    }

    private static DefaultRules defaults(Reading reading, Reading.At at) {
        return reading.scalar(at).map(s -> switch (s.text()) {
            case "fmw" -> DefaultRules.FMW;
            case "none" -> DefaultRules.NONE;
            default -> {
                reading.error(at, Reading.quote(s.text()) + " is not a default rule set (fmw or none)");
                yield DefaultRules.FMW;
            }
        }).orElse(DefaultRules.FMW);
    }
}
