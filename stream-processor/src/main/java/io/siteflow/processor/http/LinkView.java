package io.siteflow.processor.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.siteflow.processor.query.TalkerRow;
import io.siteflow.rules.model.RttLimit;
import io.siteflow.rules.model.Site;
import io.siteflow.rules.verdict.RttSummary;
import io.siteflow.rules.verdict.SitePairRtt;
import io.siteflow.rules.verdict.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The links view ({@code GET /api/links}): per site pair {@code a < b} (by name), the bandwidth each way in
 * bytes per second over the last 10 s (sum of the host-pair talkers whose ends lie in the two sites) and the
 * handshake RTT of the audited pairs between them (merged as in {@link PeriodReport}), against the RTT limit in
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

    /** Links from the talkers and the verdicts (RTT from {@code latest}, else from {@code cumulative}). */
    public static List<LinkView> of(List<TalkerRow> talkers, List<Verdict> latest, List<Verdict> cumulative,
                                    SiteDirectory dir) {
        Map<String, double[]> bw = new TreeMap<>();
        Map<String, Long> age = new TreeMap<>();
        for (TalkerRow t : talkers) {
            Site l = dir.siteOf(t.local());
            Site r = dir.siteOf(t.remote());
            if (!l.isKnown() || !r.isKnown() || l.equals(r)) {
                continue;
            }
            boolean lFirst = l.name().compareTo(r.name()) < 0;
            double[] v = bw.computeIfAbsent(key(l.name(), r.name()), k -> new double[2]);
            age.merge(key(l.name(), r.name()), t.ageMs(), Math::min);
            v[lFirst ? 0 : 1] += t.out10s();
            v[lFirst ? 1 : 0] += t.in10s();
        }
        Map<String, List<Verdict>> rtt = new TreeMap<>();
        addRtt(rtt, latest);
        if (rtt.values().stream().allMatch(vs -> PeriodReport.rtt(vs).samples() == 0)) {
            rtt.clear();
            addRtt(rtt, cumulative);
        }
        rtt.keySet().forEach(k -> bw.computeIfAbsent(k, x -> new double[2]));
        List<LinkView> out = new ArrayList<>();
        RttLimit limit = dir.rttLimit();
        String source = limit.siteModelSetsOne() ? limit.source().json() : null;
        bw.forEach((k, v) -> {
            String[] ab = k.split("\u0000", 2);
            RttSummary r = PeriodReport.rtt(rtt.getOrDefault(k, List.of()));
            out.add(new LinkView(ab[0], ab[1], v[0], v[1], r, limit.micros(), source,
                    new SitePairRtt(ab[0], ab[1], r, limit).aboveLimit(), age.getOrDefault(k, -1L)));
        });
        return out;
    }

    private static void addRtt(Map<String, List<Verdict>> rtt, List<Verdict> vs) {
        for (Verdict v : vs) {
            rtt.computeIfAbsent(key(v.site(), v.remoteSite()), k -> new ArrayList<>()).add(v);
        }
    }

    private static String key(String a, String b) {
        return a.compareTo(b) < 0 ? a + "\u0000" + b : b + "\u0000" + a;
    }
}
