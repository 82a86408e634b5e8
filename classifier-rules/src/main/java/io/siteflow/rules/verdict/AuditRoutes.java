package io.siteflow.rules.verdict;

import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.model.Flow;
import io.siteflow.rules.model.SiteModel;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which audited pairs a classified flow counts for (DESIGN.md, "Verdict"): the initiator's, towards the
 * responder's site, and the responder's, towards the initiator's site, each when its pair is audited. The one
 * routing function of the offline audit and the Streams topology. The pairs are indexed by server address, then
 * remote site name (two lookups and no string built per flow). Immutable and thread-safe.
 */
public final class AuditRoutes {
    private final List<AuditPair> pairs;
    private final Map<String, Map<String, AuditPair>> index;
    /** The same index by the server's address in two-long form, so that routing a flow formats no address. */
    private final Map<Address, Map<String, AuditPair>> byAddress;

    private record Address(long hi, long lo) {
    }

    /** Routes to these pairs. */
    public AuditRoutes(List<AuditPair> pairs) {
        this.pairs = List.copyOf(pairs);
        Map<String, Map<String, AuditPair>> byServer = new HashMap<>();
        pairs.forEach(p -> byServer.computeIfAbsent(p.server().address(), k -> new HashMap<>())
                .put(p.remoteSite().name(), p));
        Map<String, Map<String, AuditPair>> frozen = new HashMap<>();
        byServer.forEach((server, sites) -> frozen.put(server, Map.copyOf(sites)));
        this.index = Map.copyOf(frozen);
        Map<Address, Map<String, AuditPair>> byLongs = new HashMap<>();
        pairs.forEach(p -> byLongs.put(new Address(p.server().hi(), p.server().lo()), frozen.get(p.server().address())));
        this.byAddress = Map.copyOf(byLongs);
    }

    /** Routes to the pairs the model audits ({@link AuditPairs#of}). */
    public static AuditRoutes of(SiteModel model) {
        return new AuditRoutes(AuditPairs.of(model));
    }

    /** The pairs, in model order. */
    public List<AuditPair> pairs() {
        return pairs;
    }

    /** The audited pair of a server address and a remote site name, if audited. */
    public Optional<AuditPair> pair(String server, String remoteSite) {
        return Optional.ofNullable(find(server, remoteSite));
    }

    /**
     * The sides of a flow that audited pairs count: the initiator's first, then the responder's; empty when the
     * flow concerns no audited pair.
     */
    public List<AuditSide> sides(Flow f, Classification c) {
        AuditPair asSrc = find(f.srcHi(), f.srcLo(), c.dstSite().name());
        AuditPair asDst = find(f.dstHi(), f.dstLo(), c.srcSite().name());
        if (asSrc == null) {
            return asDst == null ? List.of() : List.of(new AuditSide(asDst, false, f.src()));
        }
        AuditSide first = new AuditSide(asSrc, true, f.dst());
        return asDst == null ? List.of(first) : List.of(first, new AuditSide(asDst, false, f.src()));
    }

    /**
     * The side of a flow that counts for one server: the initiator's when {@code server} is the flow's initiator,
     * else the responder's; empty when that pair is not audited.
     */
    public Optional<AuditSide> side(String server, Flow f, Classification c) {
        String src = f.src();
        boolean initiator = server.equals(src);
        String remote = initiator ? f.dst() : src;
        AuditPair p = find(server, (initiator ? c.dstSite() : c.srcSite()).name());
        return p == null ? Optional.empty() : Optional.of(new AuditSide(p, initiator, remote));
    }

    private AuditPair find(long hi, long lo, String remoteSite) {
        Map<String, AuditPair> sites = byAddress.get(new Address(hi, lo));
        return sites == null ? null : sites.get(remoteSite);
    }

    private AuditPair find(String server, String remoteSite) {
        Map<String, AuditPair> sites = index.get(server);
        return sites == null ? null : sites.get(remoteSite);
    }
}
