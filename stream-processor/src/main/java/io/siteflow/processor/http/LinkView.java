package io.siteflow.processor.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.siteflow.processor.query.TalkerRow;
import io.siteflow.rules.model.RttLimit;
import io.siteflow.rules.model.Site;
import io.siteflow.rules.verdict.RttSummary;
import io.siteflow.rules.verdict.SitePairRtt;
import io.siteflow.rules.verdict.SitePair;
import io.siteflow.rules.verdict.SitePairRtts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The links view ({@code GET /api/links}): per site pair {@code a < b} (by name), the bandwidth each way in
 * bytes per second over the last 10 s (sum of the host-pair talkers whose ends lie in the two sites) and the
 * handshake RTT of the audited pairs between them since start (their cumulative histograms merged,
 * {@link SitePairRtts#ofAudited}: what {@code siteflow audit} reports for the site pair), against the RTT limit in
 * force: Oracle's 10 ms, or the site model's {@code rttLimitMs} when that is stricter. Immutable.
 *
 * @param siteA       first site by name
 * @param siteB       second site
 * @param aToBBps     bytes/s from A to B, 10 s rate
 * @param bToABps     bytes/s from B to A, 10 s rate
 * @param rttMicros   RTT summary, all zero without samples
 * @param limitMicros the limit in force, µs (10 000: Oracle's)
 * @param limitSource {@code oracle} or {@code site-model}: which limit it is; null (left out of the JSON) when the
 *                    site model does not set {@code rttLimitMs}
 * @param aboveLimit  true when p95 is above the limit
 * @param ageMs       how long ago (wall clock) the newest talker record of the link arrived, -1 without one
 */
public record LinkView(String siteA, String siteB, double aToBBps, double bToABps, RttSummary rttMicros,
                       long limitMicros, @JsonInclude(JsonInclude.Include.NON_NULL) String limitSource,
                       boolean aboveLimit, long ageMs) {

    /**
     * Links from the talkers and the site-pair RTT of the audited pairs' cumulative aggregates (the same
     * {@link SitePairRtts} {@code siteflow audit} reports as its site pairs).
     */
    public static List<LinkView> of(List<TalkerRow> talkers, SitePairRtts rtts, SiteDirectory dir) {
        Map<SitePair, double[]> bw = new TreeMap<>();
        Map<SitePair, Long> age = new TreeMap<>();
        for (TalkerRow t : talkers) {
            Site l = dir.siteOf(t.local());
            Site r = dir.siteOf(t.remote());
            if (!l.isKnown() || !r.isKnown() || l.equals(r)) {
                continue;
            }
            boolean lFirst = l.name().compareTo(r.name()) < 0;
            SitePair k = SitePair.of(l, r);
            double[] v = bw.computeIfAbsent(k, x -> new double[2]);
            age.merge(k, t.ageMs(), Math::min);
            v[lFirst ? 0 : 1] += t.out10s();
            v[lFirst ? 1 : 0] += t.in10s();
        }
        RttLimit limit = dir.rttLimit();
        Map<SitePair, SitePairRtt> rtt = new TreeMap<>();
        for (SitePairRtt r : rtts.summaries(limit)) {
            rtt.put(SitePair.of(r.siteA(), r.siteB()), r);
            bw.computeIfAbsent(SitePair.of(r.siteA(), r.siteB()), x -> new double[2]);
        }
        List<LinkView> out = new ArrayList<>();
        String source = limit.siteModelSetsOne() ? limit.source().json() : null;
        bw.forEach((k, v) -> {
            SitePairRtt r = rtt.getOrDefault(k, new SitePairRtt(k.siteA(), k.siteB(), RttSummary.NONE, limit));
            out.add(new LinkView(k.siteA(), k.siteB(), v[0], v[1], r.rtt(), limit.micros(), source, r.aboveLimit(),
                    age.getOrDefault(k, -1L)));
        });
        return out;
    }
}
