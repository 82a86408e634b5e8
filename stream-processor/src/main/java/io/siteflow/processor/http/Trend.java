package io.siteflow.processor.http;

import io.siteflow.rules.verdict.Verdict;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The compact trend of one audited pair for the verdict cards' sparklines ({@code GET /api/trend}): per
 * closed window {@code [windowStart, dbShare, crossBytes]}, oldest first. Immutable.
 *
 * @param server     audited server address
 * @param remoteSite the remote site
 * @param points     {@code [start epoch ms, share 0..1, cross bytes]} per window
 */
public record Trend(String server, String remoteSite, List<List<Object>> points) {

    /** Groups windows (oldest first) by pair, pairs in order of first appearance sorted by server then site. */
    public static List<Trend> of(List<Verdict> windows) {
        Map<String, List<List<Object>>> byPair = new LinkedHashMap<>();
        Map<String, String[]> names = new LinkedHashMap<>();
        for (Verdict v : windows) {
            String k = v.server() + "\u0000" + v.remoteSite();
            names.putIfAbsent(k, new String[] {v.server(), v.remoteSite()});
            BigDecimal share = v.dbShare();
            byPair.computeIfAbsent(k, x -> new ArrayList<>())
                    .add(List.of(v.window().map(w -> w.start()).orElse(0L), share, v.crossBytes()));
        }
        List<Trend> out = new ArrayList<>();
        byPair.keySet().stream().sorted().forEach(k -> out.add(new Trend(names.get(k)[0], names.get(k)[1], byPair.get(k))));
        return out;
    }
}
