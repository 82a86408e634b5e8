package io.siteflow.processor.topology;

import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.SiteModel;
import io.siteflow.rules.verdict.AuditPair;
import io.siteflow.rules.verdict.AuditPairs;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A site model in force with what the topology derives from it once: the classifier and the audited pairs
 * indexed by server address and remote site. Immutable and thread-safe.
 *
 * @param model    the model
 * @param yaml     the text it was loaded from (as published on {@code siteflow.sites})
 * @param loadedMs when this instance started using it, epoch ms (wall clock)
 */
public record ActiveModel(SiteModel model, String yaml, long loadedMs, Classifier classifier,
                          List<AuditPair> pairs, Map<String, AuditPair> pairIndex, Set<String> hostNames) {

    /** Derives classifier and pairs from a loaded model. */
    public static ActiveModel of(SiteModel model, String yaml, long loadedMs) {
        List<AuditPair> pairs = AuditPairs.of(model);
        Map<String, AuditPair> index = new HashMap<>();
        pairs.forEach(p -> index.put(pairKey(p.server().address(), p.remoteSite().name()), p));
        Set<String> names = model.hosts().stream().map(Host::name).collect(Collectors.toUnmodifiableSet());
        return new ActiveModel(model, yaml, loadedMs, new Classifier(model), pairs, Map.copyOf(index), names);
    }

    /** True when {@code agent} is the host agent of a listed host (its id equals the host's name). */
    public boolean isHostAgent(String agent) {
        return hostNames.contains(agent);
    }

    /** The audited pair of a server address and a remote site name, if the model audits it. */
    public Optional<AuditPair> pair(String server, String remoteSite) {
        return Optional.ofNullable(pairIndex.get(pairKey(server, remoteSite)));
    }

    /** The pair's key on {@code siteflow.verdicts} and in the stores: {@code server|remoteSite}. */
    public static String pairKey(String server, String remoteSite) {
        return server + "|" + remoteSite;
    }

    /** The pair's key on {@code siteflow.verdicts} and in the stores: {@code server|remoteSite}. */
    public static String pairKey(AuditPair p) {
        return pairKey(p.server().address(), p.remoteSite().name());
    }
}
