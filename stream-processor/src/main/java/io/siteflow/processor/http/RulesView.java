package io.siteflow.processor.http;

import io.siteflow.processor.query.RulesInfo;
import io.siteflow.rules.model.DefaultRules;
import io.siteflow.rules.model.RttLimit;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The body of {@code GET /api/rules}: the site model in force ({@link RulesInfo}) with what the dashboard needs
 * beside it: the least cross-site bytes a verdict needs (to say how much an INSUFFICIENT pair lacks), which
 * built-in rules follow the user's ({@code FMW} or {@code NONE}) and their text, and the RTT limit in force (the
 * dashboard draws it: the model's, never a default of its own). Immutable.
 *
 * @param minCrossBytes the model's {@code minCrossBytes} (the default when the model does not load)
 * @param defaults      {@code FMW} or {@code NONE} ({@code defaults:} in sites.yaml)
 * @param defaultRules  the text of the built-in rules that follow the user's ({@code fmw-defaults.yaml} of
 *                      classifier-rules), empty for {@code NONE}
 * @param rttLimitMicros the RTT limit in force, µs: the stricter of Oracle's 10 ms and the model's {@code rttLimitMs}
 *                      (Oracle's when the model does not load)
 * @param rttLimitSource {@code oracle} or {@code site-model}: which limit it is
 */
record RulesView(String version, String yaml, long loadedMs, long minCrossBytes, String defaults,
                 String defaultRules, long rttLimitMicros, String rttLimitSource) {
    /** classifier-rules' built-in FMW rules, read by the same classpath name its loader reads. */
    static final String FMW_RESOURCE = "/io/siteflow/rules/fmw-defaults.yaml";
    private static final String FMW_TEXT = read(FMW_RESOURCE);

    static RulesView of(RulesInfo r, SiteDirectory dir) {
        DefaultRules d = dir.defaultRules();
        RttLimit limit = dir.rttLimit();
        return new RulesView(r.version(), r.yaml(), r.loadedMs(), dir.minCrossBytes(), d.name(),
                d == DefaultRules.FMW ? FMW_TEXT : "", limit.micros(), limit.source().json());
    }

    private static String read(String resource) {
        try (InputStream in = RulesView.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("resource missing: " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(resource + ": " + e.getMessage(), e);
        }
    }
}
