package io.siteflow.rules.whatif;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.RttLimit;
import io.siteflow.rules.model.Site;
import io.siteflow.rules.model.SiteModel;
import io.siteflow.rules.observer.ObserverMemory;
import io.siteflow.rules.observer.ObserverRule;
import io.siteflow.rules.observer.ObserverState;
import io.siteflow.rules.verdict.SitePair;
import io.siteflow.rules.verdict.SitePairRtts;
import java.util.HashMap;
import java.util.Map;

/**
 * Folds flow records into the what-if of moving one server to another site ({@code siteflow whatif --move
 * wls3=region1}). A flow of the server is cross-site before when its peer is in a known site other than the
 * server's, and after when its peer is in a known site other than the target. DB calls of DB flows that change side
 * stop (or start) paying the difference between the inter-site and the intra-site RTT medians measured in the same
 * records (handshake RTTs, from every record; 0 for a side without samples). The server's flows count once, as
 * its observer saw them ({@link ObserverRule}). Not thread-safe.
 */
public final class WhatIf {
    private final Classifier classifier;
    private final Host server;
    private final Site target;
    private final SitePairRtts rttBySitePair = new SitePairRtts();
    private final RttLimit limit;
    private final ObserverRule observerRule;
    private final ObserverState observers = new ObserverMemory();
    private final Map<WhatIfReport.Flow, Long> becomeLocal = new HashMap<>();
    private final Map<WhatIfReport.Flow, Long> becomeRemote = new HashMap<>();
    long crossBefore;
    long crossAfter;
    long callsStopPaying;
    long callsStartPaying;
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;

    /**
     * A server or site the model does not have: {@link #getMessage()} says it as {@code siteflow whatif --move}
     * does, {@link #parameter()} ({@code server} or {@code site}) and {@link #name()} let an API say it its way.
     */
    public static final class UnknownName extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final String parameter;
        private final String name;

        UnknownName(String parameter, String name, String message) {
            super(message);
            this.parameter = parameter;
            this.name = name;
        }

        /** {@code server} or {@code site}. */
        public String parameter() {
            return parameter;
        }

        /** The name given. */
        public String name() {
            return name;
        }
    }

    /**
     * @param serverName a host of the model, by name or address
     * @param siteName   a site of the model
     * @throws UnknownName when the server or the site is not in the model
     */
    public WhatIf(SiteModel model, String serverName, String siteName) {
        this.classifier = new Classifier(model);
        this.server = model.hosts().stream().filter(h -> h.name().equals(serverName) || h.address().equals(serverName))
                .findFirst().orElseThrow(() -> new UnknownName("server", serverName, "--move " + serverName + "="
                        + siteName + ": no host " + serverName + " in the site model"));
        this.target = model.site(siteName);
        this.limit = model.rttLimit();
        this.observerRule = new ObserverRule(model);
        if (!target.isKnown()) {
            throw new UnknownName("site", siteName, "--move " + serverName + "=" + siteName + ": no site "
                    + siteName + " in the site model");
        }
    }

    /**
     * Adds one record (records of other hosts only give RTT samples). A record of the server's flows counts only
     * from the server's observer ({@link ObserverRule}, in record order), so two observers' copies count once.
     */
    public void accept(FlowRecord r) {
        Classification c;
        try {
            c = classifier.classify(Classifier.flowOf(r));
        } catch (IllegalArgumentException e) {
            return;
        }
        if (r.rttMicros() != null && c.srcSite().isKnown() && c.dstSite().isKnown()) {
            rttBySitePair.add(SitePair.of(c.srcSite(), c.dstSite()), r.rttMicros());
        }
        boolean fromServer = r.src().equals(server.address());
        if (!fromServer && !r.dst().equals(server.address())
                || !observerRule.counts(server, r.agent(), observers)) {
            return;
        }
        first = Math.min(first, r.start());
        last = Math.max(last, r.end());
        Site peer = fromServer ? c.dstSite() : c.srcSite();
        boolean before = peer.isKnown() && peer != server.site();
        boolean after = peer.isKnown() && peer != target;
        long bytes = r.totalBytes();
        crossBefore += before ? bytes : 0;
        crossAfter += after ? bytes : 0;
        if (before != after) {
            WhatIfReport.Flow flow = new WhatIfReport.Flow(r.src(), r.srcPort(), r.dst(), r.dstPort(),
                    c.category().name(), 0);
            (before ? becomeLocal : becomeRemote).merge(flow, bytes, Long::sum);
            if (c.category() == Category.DB) {
                if (before) {
                    callsStopPaying += r.dbCalls();
                } else {
                    callsStartPaying += r.dbCalls();
                }
            }
        }
    }

    /** The answer over the records so far. */
    public WhatIfReport report() {
        return WhatIfReport.of(this, server, target, limit, rttBySitePair, becomeLocal, becomeRemote);
    }
}
