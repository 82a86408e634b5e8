package io.siteflow.processor.topology;

import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.SiteModel;
import io.siteflow.rules.verdict.AuditPair;
import io.siteflow.rules.verdict.AuditPairs;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A site model in force with what the topology derives from it once: the classifier, the audited pairs indexed
 * by server address, then remote site (two lookups and no string built per record), and each pair's key.
 * Immutable and thread-safe.
 *
 * @param model    the model
 * @param yaml     the text it was loaded from (as published on {@code siteflow.sites})
 * @param loadedMs when this instance started using it, epoch ms (wall clock)
 */
public record ActiveModel(SiteModel model, String yaml, long loadedMs, Classifier classifier,
                          List<AuditPair> pairs, Map<String, Map<String, AuditPair>> pairIndex,
                          Map<AuditPair, String> pairKeys, Set<String> hostNames) {

    /** Derives classifier and pairs from a loaded model. */
    public static ActiveModel of(SiteModel model, String yaml, long loadedMs) {
        List<AuditPair> pairs = AuditPairs.of(model);
        Map<String, Map<String, AuditPair>> index = new HashMap<>();
        Map<AuditPair, String> keys = new IdentityHashMap<>();
        pairs.forEach(p -> {
            index.computeIfAbsent(p.server().address(), k -> new HashMap<>()).put(p.remoteSite().name(), p);
            keys.put(p, pairKey(p.server().address(), p.remoteSite().name()));
        });
        Set<String> names = model.hosts().stream().map(Host::name).collect(Collectors.toUnmodifiableSet());
        Map<String, Map<String, AuditPair>> frozen = new HashMap<>();
        index.forEach((server, sites) -> frozen.put(server, Map.copyOf(sites)));
        return new ActiveModel(model, yaml, loadedMs, new Classifier(model), pairs, Map.copyOf(frozen),
                Collections.unmodifiableMap(keys), names);
    }

    /** True when {@code agent} is the host agent of a listed host (its id equals the host's name). */
    public boolean isHostAgent(String agent) {
        return hostNames.contains(agent);
    }

    /** The audited pair of a server address and a remote site name, if the model audits it. */
    public Optional<AuditPair> pair(String server, String remoteSite) {
        Map<String, AuditPair> sites = pairIndex.get(server);
        return Optional.ofNullable(sites == null ? null : sites.get(remoteSite));
    }

    /** The pair's key on {@code siteflow.verdicts} and in the stores: {@code server|remoteSite}. */
    public static String pairKey(String server, String remoteSite) {
        return server + "|" + remoteSite;
    }

    /** The pair's key on {@code siteflow.verdicts} and in the stores: {@code server|remoteSite}. */
    public static String pairKey(AuditPair p) {
        return pairKey(p.server().address(), p.remoteSite().name());
    }

    /** {@link #pairKey(AuditPair)} of one of this model's pairs, built once when the model was loaded. */
    public String keyOf(AuditPair p) {
        String k = pairKeys.get(p);
        return k != null ? k : pairKey(p);
    }
}
