package io.siteflow.rules.whatif;

import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.RttLimit;
import io.siteflow.rules.model.Site;
import io.siteflow.rules.model.SiteModel;
import io.siteflow.rules.verdict.SitePair;
import io.siteflow.rules.verdict.SitePairRtts;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The what-if of moving {@code server} from {@code fromSite} to {@code toSite}. Immutable.
 *
 * @param server            the server's name
 * @param address           its address
 * @param fromSite          its site now
 * @param toSite            the site it would move to
 * @param crossBytesBefore  its cross-site bytes now (both directions)
 * @param crossBytesAfter   its cross-site bytes after the move
 * @param becomeLocal       flows that would become local, with their bytes, largest first (then by text)
 * @param becomeRemote      flows that would become cross-site, likewise
 * @param callsStopPaying   DB calls that would stop paying the inter-site RTT
 * @param callsStartPaying  DB calls that would start paying it
 * @param seconds           span of the server's records, seconds (at least 1)
 * @param rttSavedMicros    inter-site minus intra-site RTT median between the server's old and new site, µs
 * @param microsSavedPerSecond time per second of work saved ({@code > 0}) or added ({@code < 0}): (calls that stop
 *                          paying − calls that start paying) / seconds × {@code rttSavedMicros}
 * @param links             every site pair with RTT samples, with its fibre-distance upper bound
 * @param limit             the RTT limit the links are flagged against ({@link SiteModel#rttLimit()})
 */
public record WhatIfReport(String server, String address, String fromSite, String toSite, long crossBytesBefore,
                           long crossBytesAfter, List<Flow> becomeLocal, List<Flow> becomeRemote,
                           long callsStopPaying, long callsStartPaying, long seconds, long rttSavedMicros,
                           long microsSavedPerSecond, List<Link> links, RttLimit limit) {

    /**
     * One site pair's RTT and the fibre distance it allows at most: light in fibre covers about 200 km per ms one
     * way (≈ 5 µs/km), so 100 km per ms of RTT; queues, routers and detours only add time, so the real path is
     * shorter than this bound.
     *
     * @param siteA         one site
     * @param siteB         the other (may be the same: intra-site)
     * @param rttP50Micros  handshake RTT median
     * @param fibreKmAtMost {@code rttP50Micros / 10}
     * @param aboveLimit    true when the RTT median is above the report's {@code limit}: Oracle's 10 ms support
     *                      limit, or the site model's {@code rttLimitMs} when that is stricter
     */
    public record Link(String siteA, String siteB, long rttP50Micros, long fibreKmAtMost, boolean aboveLimit) {
    }

    /**
     * One flow of the server that would change side: its five-tuple as recorded (without the protocol), its
     * category and its bytes in both directions.
     */
    public record Flow(String src, int srcPort, String dst, int dstPort, String category, long bytes) {
        /** {@code src:port -> dst:port CATEGORY} (IPv6 addresses in brackets). */
        public String text() {
            return host(src) + ":" + srcPort + " -> " + host(dst) + ":" + dstPort + " " + category;
        }

        private static String host(String a) {
            return a.indexOf(':') >= 0 ? "[" + a + "]" : a;
        }

        Flow withBytes(long b) {
            return new Flow(src, srcPort, dst, dstPort, category, b);
        }
    }

    /** Oracle's support limit for a stretched cluster, µs of RTT. */
    public static final long LIMIT_MICROS = RttLimit.ORACLE_MICROS;

    static WhatIfReport of(WhatIf w, Host server, Site target, RttLimit limit, SitePairRtts rtt,
                           Map<Flow, Long> becomeLocal, Map<Flow, Long> becomeRemote) {
        List<Link> links = new ArrayList<>();
        rtt.histograms().forEach((k, h) -> {
            long p50 = h.percentile(50);
            links.add(new Link(k.siteA(), k.siteB(), p50, p50 / 10, limit.exceededBy(p50)));
        });
        long inter = rtt.get(SitePair.of(server.site(), target)).percentile(50);
        long intra = rtt.get(SitePair.of(target, target)).percentile(50);
        long saved = Math.max(0, inter - intra);
        long seconds = w.last >= w.first ? Math.max(1, (w.last - w.first + 999) / 1000) : 1;
        long perSecond = BigDecimal.valueOf((w.callsStopPaying - w.callsStartPaying) * saved)
                .divide(BigDecimal.valueOf(seconds), 0, RoundingMode.HALF_EVEN).longValue();
        return new WhatIfReport(server.name(), server.address(), server.site().name(), target.name(), w.crossBefore,
                w.crossAfter, largestFirst(becomeLocal), largestFirst(becomeRemote), w.callsStopPaying,
                w.callsStartPaying, seconds, saved, perSecond, links, limit);
    }

    private static List<Flow> largestFirst(Map<Flow, Long> m) {
        return m.entrySet().stream().map(e -> e.getKey().withBytes(e.getValue()))
                .sorted(Comparator.comparingLong(Flow::bytes).reversed().thenComparing(Flow::text)).toList();
    }
}
