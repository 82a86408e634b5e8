package io.siteflow.processor.topology;

import io.siteflow.processor.topology.store.PairKey;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.model.SiteModel;
import io.siteflow.rules.observer.ObserverRule;
import io.siteflow.rules.verdict.AuditPair;
import io.siteflow.rules.verdict.AuditRoutes;
import io.siteflow.rules.verdict.DbSiteEnds;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A site model in force with what the topology derives from it once: the classifier, the audit routes (the
 * audited pairs indexed by server address, then remote site), each pair's key and the ends of the site
 * comparison's DB records ({@link DbSiteEnds}) and the observer rule over its hosts. Immutable and thread-safe.
 *
 * @param model    the model
 * @param yaml     the text it was loaded from (as published on {@code siteflow.sites})
 * @param loadedMs when this instance started using it, epoch ms (wall clock)
 */
public record ActiveModel(SiteModel model, String yaml, long loadedMs, Classifier classifier, AuditRoutes routes,
                          Map<AuditPair, PairKey> pairKeys, ObserverRule observers,
                          DbSiteEnds dbSiteEnds) {

    /** Derives classifier and pairs from a loaded model. */
    public static ActiveModel of(SiteModel model, String yaml, long loadedMs) {
        AuditRoutes routes = AuditRoutes.of(model);
        Map<AuditPair, PairKey> keys = new IdentityHashMap<>();
        routes.pairs().forEach(p -> keys.put(p, PairKey.of(p)));
        return new ActiveModel(model, yaml, loadedMs, new Classifier(model), routes,
                Collections.unmodifiableMap(keys), new ObserverRule(model), DbSiteEnds.of(model));
    }

    /** The audited pairs, in model order. */
    public List<AuditPair> pairs() {
        return routes.pairs();
    }

    /** True when {@code agent} is the host agent of a listed host (its id equals the host's name). */
    public boolean isHostAgent(String agent) {
        return observers.isHostAgent(agent);
    }

    /** The audited pair of a server address and a remote site name, if the model audits it. */
    public Optional<AuditPair> pair(String server, String remoteSite) {
        return routes.pair(server, remoteSite);
    }

    /** The pair's key on {@code siteflow.verdicts} and in the stores: {@code server|remoteSite}. */
    public static String pairKey(AuditPair p) {
        return PairKey.of(p).encoded();
    }

    /** The key of one of this model's pairs, built once when the model was loaded. */
    public PairKey keyOf(AuditPair p) {
        PairKey k = pairKeys.get(p);
        return k != null ? k : PairKey.of(p);
    }
}
