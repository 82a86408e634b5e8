package io.siteflow.rules.whatif;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.Site;
import io.siteflow.rules.model.SiteModel;
import io.siteflow.rules.observer.ObserverMemory;
import io.siteflow.rules.observer.ObserverRule;
import io.siteflow.rules.observer.ObserverState;
import io.siteflow.rules.verdict.SitePair;
import io.siteflow.rules.verdict.SitePairRtts;
import java.util.Optional;

/**
 * Folds flow records into the what-if of moving one server to another site ({@code siteflow whatif --move
 * wls3=region1}). A flow of the server is cross-site before when its peer is in a known site other than the
 * server's, and after when its peer is in a known site other than the target. DB calls of DB flows that change side
 * stop (or start) paying the difference between the inter-site and the intra-site RTT medians measured in the same
 * records (handshake RTTs, from every record, {@link #rttPairOf}; 0 for a side without samples). The server's flows
 * count once, as its observer saw them ({@link ObserverRule}), each as {@link ServerTraffic#entryOf} says. The
 * stream processor keeps the same inputs (a {@link ServerTraffic} per server, the site-pair RTTs) in its stores and
 * answers with {@link #report(Move, io.siteflow.rules.model.RttLimit, SitePairRtts, ServerTraffic)}. Not
 * thread-safe.
 */
public final class WhatIf {
    private final Classifier classifier;
    private final Move move;
    private final SiteModel model;
    private final SitePairRtts rttBySitePair = new SitePairRtts();
    private final ObserverRule observerRule;
    private final ObserverState observers = new ObserverMemory();
    private final ServerTraffic traffic = ServerTraffic.exact();

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
     * The server to move and the site it would move to, both of the model.
     *
     * @param server the host
     * @param target the site
     */
    public record Move(Host server, Site target) {
        /**
         * @param serverName a host of the model, by name or address
         * @param siteName   a site of the model
         * @throws UnknownName when the server or the site is not in the model
         */
        public static Move of(SiteModel model, String serverName, String siteName) {
            Host server = model.hosts().stream()
                    .filter(h -> h.name().equals(serverName) || h.address().equals(serverName)).findFirst()
                    .orElseThrow(() -> new UnknownName("server", serverName, "--move " + serverName + "="
                            + siteName + ": no host " + serverName + " in the site model"));
            Site target = model.site(siteName);
            if (!target.isKnown()) {
                throw new UnknownName("site", siteName, "--move " + serverName + "=" + siteName + ": no site "
                        + siteName + " in the site model");
            }
            return new Move(server, target);
        }
    }

    /**
     * @param serverName a host of the model, by name or address
     * @param siteName   a site of the model
     * @throws UnknownName when the server or the site is not in the model
     */
    public WhatIf(SiteModel model, String serverName, String siteName) {
        this.model = model;
        this.classifier = new Classifier(model);
        this.move = Move.of(model, serverName, siteName);
        this.observerRule = new ObserverRule(model);
    }

    /**
     * The site pair whose RTT a record's handshake RTT is a sample of: both ends in known sites and an RTT
     * measured; empty otherwise. Every record gives its sample, whoever observed it.
     */
    public static Optional<SitePair> rttPairOf(FlowRecord r, Classification c) {
        return r.rttMicros() != null && c.srcSite().isKnown() && c.dstSite().isKnown()
                ? Optional.of(SitePair.of(c.srcSite(), c.dstSite())) : Optional.empty();
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
        rttPairOf(r, c).ifPresent(p -> rttBySitePair.add(p, r.rttMicros()));
        Host server = move.server();
        if (!r.src().equals(server.address()) && !r.dst().equals(server.address())
                || !observerRule.counts(server, io.siteflow.rules.observer.ObserverRule.observerOf(r), observers)) {
            return;
        }
        traffic.add(ServerTraffic.entryOf(r, c, server.address()));
    }

    /** The answer over the records so far. */
    public WhatIfReport report() {
        return report(move, model.rttLimit(), rttBySitePair, traffic);
    }

    /**
     * The what-if of {@code move} from the server's traffic and the site-pair RTTs of the same records.
     *
     * @param limit the RTT limit the links are flagged against (the model's {@code rttLimit()})
     */
    public static WhatIfReport report(Move move, io.siteflow.rules.model.RttLimit limit, SitePairRtts rtts,
                                      ServerTraffic traffic) {
        return WhatIfReport.of(move.server(), move.target(), limit, rtts, traffic);
    }
}
