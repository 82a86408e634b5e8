package io.siteflow.agent.decode;

import java.util.Map;

/**
 * Corpus files whose IP-pair counts differ from tshark's on purpose, each with the reason; the same list,
 * explained, is in {@code capture-agent/docs/decode.md}.
 */
final class CorpusDifferences {
    private static final Map<String, String> KNOWN = Map.ofEntries(
            Map.entry("placeholder", "placeholder"));

    private CorpusDifferences() {
    }

    /** The documented reason for {@code path} (relative to the corpus), or null when none. */
    static String reason(String path) {
        return KNOWN.get(path);
    }
}
