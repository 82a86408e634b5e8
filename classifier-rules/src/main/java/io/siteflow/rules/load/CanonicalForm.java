package io.siteflow.rules.load;

import io.siteflow.rules.model.AuditSpec;
import io.siteflow.rules.model.DefaultRules;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.Match;
import io.siteflow.rules.model.Rule;
import io.siteflow.rules.model.Site;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;

/**
 * The rule-set version: {@code sha256:<hex>} over a canonical text of the model that ignores formatting,
 * comments, key order, the order of sites and hosts and the order of values inside a condition, but not the
 * order of rules. Identical content gives an identical version. Thread-safe.
 */
final class CanonicalForm {
    private CanonicalForm() {
    }

    static String text(BigDecimal threshold, long minCrossBytes, DefaultRules defaults, List<Site> sites,
                        List<Host> hosts, List<Rule> rules, List<AuditSpec> audit) {
        StringBuilder sb = new StringBuilder();
        sb.append("threshold ").append(threshold.stripTrailingZeros().toPlainString()).append('\n');
        sb.append("minCrossBytes ").append(minCrossBytes).append('\n');
        sb.append("defaults ").append(defaults.name().toLowerCase(java.util.Locale.ROOT)).append('\n');
        sites.stream().sorted(Comparator.comparing(Site::name)).forEach(s -> sb.append("site ").append(s.name())
                .append(' ').append(sorted(s.cidrs().stream().map(Object::toString).toArray(String[]::new)))
                .append('\n'));
        hosts.stream().sorted(Comparator.comparing(Host::address)).forEach(h -> sb.append("host ")
                .append(h.address()).append(' ').append(h.name()).append(' ').append(h.role().name())
                .append(h.cluster().isEmpty() ? "" : " cluster=" + h.cluster()).append('\n'));
        for (Rule r : rules) {
            sb.append("rule ").append(r.name()).append(' ').append(r.category());
            for (Match m : r.matches()) {
                sb.append(' ').append(m.key()).append('=').append(sorted(m.values().split(",")));
            }
            sb.append('\n');
        }
        for (AuditSpec a : audit) {
            sb.append("audit ").append(a.server().address()).append(' ').append(a.remoteSite().name()).append('\n');
        }
        return sb.toString();
    }

    static String version(String canonicalText) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(canonicalText.getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }

    private static String sorted(String[] values) {
        String[] v = values.clone();
        Arrays.sort(v);
        return String.join(",", v);
    }
}
