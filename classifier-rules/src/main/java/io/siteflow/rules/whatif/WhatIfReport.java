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
 * @param becomeLocal       flows that would become local, with their bytes, largest first (then by text): all of
 *                          them offline, at most {@link ServerTraffic#KEPT_FLOWS} per day from the processor's stores
 * @param becomeRemote      flows that would become cross-site, likewise
 * @param becomeLocalTotal  how many flows would become local and their bytes (all of them)
 * @param becomeRemoteTotal how many would become cross-site and their bytes
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
                           Total becomeLocalTotal, Total becomeRemoteTotal, long callsStopPaying, long callsStartPaying, long seconds, long rttSavedMicros,
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
     * The flows of the server that would change side, counted: how many (exact while a day of the processor's
     * store kept them all, else estimated, {@link ServerTraffic}) and their bytes in both directions (exact).
     */
    public record Total(long flows, long bytes) {
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

    static WhatIfReport of(Host server, Site target, RttLimit limit, SitePairRtts rtt, ServerTraffic traffic) {
        List<Link> links = new ArrayList<>();
        rtt.histograms().forEach((k, h) -> {
            long p50 = h.percentile(50);
            links.add(new Link(k.siteA(), k.siteB(), p50, p50 / 10, limit.exceededBy(p50)));
        });
        long inter = rtt.get(SitePair.of(server.site(), target)).percentile(50);
        long intra = rtt.get(SitePair.of(target, target)).percentile(50);
        long saved = Math.max(0, inter - intra);
        String from = server.site().name();
        String to = target.name();
        long before = 0;
        long after = 0;
        for (Map.Entry<String, Long> e : traffic.bytesByPeerSite().entrySet()) {
            before += e.getKey().equals(from) ? 0 : e.getValue();
            after += e.getKey().equals(to) ? 0 : e.getValue();
        }
        // a flow changes side when its peer is the target's site (local after) or the server's (remote after)
        ServerTraffic.Peer local = from.equals(to) ? null : traffic.peer(to);
        ServerTraffic.Peer remote = from.equals(to) ? null : traffic.peer(from);
        long stop = local == null ? 0 : local.dbCalls;
        long start = remote == null ? 0 : remote.dbCalls;
        long seconds = traffic.last() >= traffic.first()
                ? Math.max(1, (traffic.last() - traffic.first() + 999) / 1000) : 1;
        long perSecond = BigDecimal.valueOf((stop - start) * saved)
                .divide(BigDecimal.valueOf(seconds), 0, RoundingMode.HALF_EVEN).longValue();
        return new WhatIfReport(server.name(), server.address(), server.site().name(), target.name(), before, after,
                flows(local), flows(remote), total(local), total(remote), stop, start, seconds, saved, perSecond,
                links, limit);
    }

    private static List<Flow> flows(ServerTraffic.Peer p) {
        return p == null ? List.of() : List.copyOf(p.flows.largestFirst());
    }

    private static Total total(ServerTraffic.Peer p) {
        return p == null ? new Total(0, 0) : new Total(p.flows.count(), p.bytes);
    }
}
