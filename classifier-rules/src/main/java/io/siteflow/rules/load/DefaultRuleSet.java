package io.siteflow.rules.load;

import io.siteflow.rules.model.Rule;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The Oracle FMW default rules, read once from the classpath resource {@code fmw-defaults.yaml} by the same
 * reader as user rules. Thread-safe (initialised by the class loader).
 */
final class DefaultRuleSet {
    static final String RESOURCE = "fmw-defaults.yaml";
    private static final DefaultRuleSet FMW = load();

    final List<RuleReader.ReadRule> rules;
    final List<Diagnostic> diagnostics;

    private DefaultRuleSet(List<RuleReader.ReadRule> rules, List<Diagnostic> diagnostics) {
        this.rules = rules;
        this.diagnostics = diagnostics;
    }

    static DefaultRuleSet fmw() {
        return FMW;
    }

    List<Rule> ruleList() {
        return rules.stream().map(RuleReader.ReadRule::rule).toList();
    }

    private static DefaultRuleSet load() {
        String text;
        try (InputStream in = DefaultRuleSet.class.getResourceAsStream("/io/siteflow/rules/" + RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource missing: io/siteflow/rules/" + RESOURCE);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Diagnostics d = new Diagnostics(RESOURCE);
        Reading reading = new Reading(d);
        List<RuleReader.ReadRule> rules = new YamlTreeReader(d).read(text)
                .flatMap(root -> reading.mapping(new Reading.At(root, ""), List.of("rules"), List.of("rules")))
                .map(Map<String, Reading.At>::values)
                .map(v -> new RuleReader(reading, List.of(), true).read(v.iterator().next()))
                .orElse(List.of());
        ShadowCheck.check(rules, reading);
        return new DefaultRuleSet(List.copyOf(rules), d.sorted());
    }
}
