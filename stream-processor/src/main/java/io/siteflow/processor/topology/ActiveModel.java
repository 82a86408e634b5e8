package io.siteflow.processor.topology;

import io.siteflow.processor.topology.store.PairKey;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.SiteModel;
import io.siteflow.rules.verdict.AuditPair;
import io.siteflow.rules.verdict.AuditRoutes;
import io.siteflow.rules.verdict.DbSiteEnds;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A site model in force with what the topology derives from it once: the classifier, the audit routes (the
 * audited pairs indexed by server address, then remote site), each pair's key and the ends of the site
 * comparison's DB records ({@link DbSiteEnds}). Immutable and thread-safe.
 *
 * @param model    the model
 * @param yaml     the text it was loaded from (as published on {@code siteflow.sites})
 * @param loadedMs when this instance started using it, epoch ms (wall clock)
 */
public record ActiveModel(SiteModel model, String yaml, long loadedMs, Classifier classifier, AuditRoutes routes,
                          Map<AuditPair, PairKey> pairKeys, Set<String> hostNames,
                          DbSiteEnds dbSiteEnds) {

    /** Derives classifier and pairs from a loaded model. */
    public static ActiveModel of(SiteModel model, String yaml, long loadedMs) {
        AuditRoutes routes = AuditRoutes.of(model);
        Map<AuditPair, PairKey> keys = new IdentityHashMap<>();
        routes.pairs().forEach(p -> keys.put(p, PairKey.of(p)));
        Set<String> names = model.hosts().stream().map(Host::name).collect(Collectors.toUnmodifiableSet());
        return new ActiveModel(model, yaml, loadedMs, new Classifier(model), routes,
                Collections.unmodifiableMap(keys), names, DbSiteEnds.of(model));
    }

    /** The audited pairs, in model order. */
    public List<AuditPair> pairs() {
        return routes.pairs();
    }

    /** True when {@code agent} is the host agent of a listed host (its id equals the host's name). */
    public boolean isHostAgent(String agent) {
        return hostNames.contains(agent);
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
