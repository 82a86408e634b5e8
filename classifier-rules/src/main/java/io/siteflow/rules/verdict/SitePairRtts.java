package io.siteflow.rules.verdict;

import io.siteflow.rules.model.RttLimit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Round-trip times per {@link SitePair}: one mergeable {@link RttHistogram} each. The site-pair RTT of the audit
 * report and of the processor's links is {@link #ofAudited} over the audited pairs' aggregates (each flow counted
 * as its server's observer saw it), so {@code siteflow audit}, {@code /api/links} and the Links view give the same
 * percentiles for the same records; the what-if {@link #add adds} every record's sample instead (it needs the
 * intra-site RTT too). Not thread-safe.
 */
public final class SitePairRtts {
    private final Map<SitePair, RttHistogram> bySitePair = new TreeMap<>();

    /** The site-pair RTT of audited pairs: every pair's histogram merged into its sites' pair. */
    public static SitePairRtts ofAudited(Map<AuditPair, PairAggregate> aggregates) {
        SitePairRtts out = new SitePairRtts();
        aggregates.forEach((p, a) -> out.merge(SitePair.of(p), a.rtt()));
        return out;
    }

    /** Adds one sample (µs; a negative one is ignored). */
    public void add(SitePair pair, long micros) {
        bySitePair.computeIfAbsent(pair, k -> new RttHistogram()).add(micros);
    }

    /** Adds every sample of {@code h} to the pair's histogram. */
    public void merge(SitePair pair, RttHistogram h) {
        bySitePair.computeIfAbsent(pair, k -> new RttHistogram()).merge(h);
    }

    /** The pair's histogram; an empty one when it has none. */
    public RttHistogram get(SitePair pair) {
        return bySitePair.getOrDefault(pair, new RttHistogram());
    }

    /** The pairs with samples, ordered by {@link SitePair}. */
    public Map<SitePair, RttHistogram> histograms() {
        Map<SitePair, RttHistogram> out = new TreeMap<>();
        bySitePair.forEach((p, h) -> {
            if (h.samples() > 0) {
                out.put(p, h);
            }
        });
        return out;
    }

    /** The summary of every pair with samples, judged against {@code limit}, ordered by {@link SitePair}. */
    public List<SitePairRtt> summaries(RttLimit limit) {
        List<SitePairRtt> out = new ArrayList<>();
        histograms().forEach((p, h) -> out.add(new SitePairRtt(p.siteA(), p.siteB(), h.summary(), limit)));
        return out;
    }
}
