package io.siteflow.rules.classify;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.IpAddresses;
import io.siteflow.model.L7Protocol;
import io.siteflow.rules.model.Flow;
import io.siteflow.rules.model.FlowFacts;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.Role;
import io.siteflow.rules.model.Rule;
import io.siteflow.rules.model.Site;
import io.siteflow.rules.model.SiteModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Classifies flows with a {@link SiteModel}: the first rule whose every condition holds gives the category.
 * Everything is precomputed at construction (host hash map keyed by the two-long address, per-prefix-length
 * site tables, rule bit sets per protocol/port/role/site/network/L7), so {@link #classify} does a handful of
 * hash probes and ANDs and allocates only its result. Immutable and thread-safe.
 */
public final class Classifier {
    private final SiteModel model;
    private final Rule[] rules;
    private final Site[] sites;
    private final Host[] hosts;
    private final int[] hostRole;
    private final LongPairIntMap hostIndex;
    private final PrefixTable siteTable;
    private final RuleMasks masks;

    public Classifier(SiteModel model) {
        this.model = model;
        rules = model.rules().toArray(new Rule[0]);
        sites = model.sites().toArray(new Site[0]);
        hosts = model.hosts().toArray(new Host[0]);
        Map<String, Integer> roleIds = new HashMap<>();
        model.hosts().forEach(h -> roleIds.putIfAbsent(h.role().name(), roleIds.size() + 1));
        hostRole = new int[hosts.length];
        hostIndex = new LongPairIntMap(hosts.length);
        for (int i = 0; i < hosts.length; i++) {
            hostRole[i] = roleIds.get(hosts[i].role().name());
            hostIndex.put(hosts[i].hi(), hosts[i].lo(), i);
        }
        List<io.siteflow.model.Cidr> nets = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        for (int s = 0; s < sites.length; s++) {
            for (io.siteflow.model.Cidr c : sites[s].cidrs()) {
                nets.add(c);
                ids.add(s);
            }
        }
        siteTable = new PrefixTable(nets, ids);
        masks = new RuleMasks(model.rules(), model.sites(), roleIds);
    }

    public SiteModel model() {
        return model;
    }

    /** Classifies a flow. */
    public Classification classify(Flow f) {
        return classify(f.proto(), f.srcHi(), f.srcLo(), f.dstHi(), f.dstLo(), f.dstPort(), f.l7());
    }

    /**
     * Classifies a flow given as its parts (the hot path; the initiator's port plays no part in rules).
     *
     * @param proto   IANA protocol number 0-255
     * @param dstPort responder port 0-65535
     * @param l7      detected protocol, {@link L7Protocol#UNKNOWN} when none
     */
    public Classification classify(int proto, long srcHi, long srcLo, long dstHi, long dstLo, int dstPort,
                                   L7Protocol l7) {
        int dstSite = siteTable.lookup(dstHi, dstLo);
        int srcSite = siteTable.lookup(srcHi, srcLo);
        int r = firstRule(proto, dstHi, dstLo, dstPort, l7, dstSite);
        Rule rule = r < 0 ? Rule.NONE : rules[r];
        return new Classification(rule.category(), rule, site(srcSite), site(dstSite));
    }

    /**
     * Classifies a flow record; its textual addresses are parsed here.
     *
     * @throws IllegalArgumentException when an address of the record is not an IP address
     */
    public Classification classify(FlowRecord r) {
        return classify(flowOf(r));
    }

    /** The {@link Flow} of a record. */
    public static Flow flowOf(FlowRecord r) {
        long[] s = IpAddresses.parse(r.src());
        long[] d = IpAddresses.parse(r.dst());
        return new Flow(r.proto(), s[0], s[1], r.srcPort(), d[0], d[1], r.dstPort(), r.l7Protocol());
    }

    /** Index of the first matching rule, or -1. */
    int firstRule(int proto, long dstHi, long dstLo, int dstPort, L7Protocol l7, int dstSite) {
        int h = hostIndex.get(dstHi, dstLo);
        int roleRow = h < 0 ? 0 : hostRole[h];
        int cidrRow = Math.max(0, masks.cidrTable.lookup(dstHi, dstLo));
        int w = masks.words;
        int po = (proto & 0xFF) * w;
        int pp = masks.portClass[dstPort & 0xFFFF] * w;
        int ro = roleRow * w;
        int so = (dstSite + 1) * w;
        int co = cidrRow * w;
        int lo = l7.ordinal() * w;
        for (int i = 0; i < w; i++) {
            long m = masks.proto[po + i] & masks.port[pp + i] & masks.role[ro + i] & masks.site[so + i]
                    & masks.cidr[co + i] & masks.l7[lo + i];
            if (m != 0) {
                return (i << 6) + Long.numberOfTrailingZeros(m);
            }
        }
        return -1;
    }

    /** The site of an address (longest prefix), {@link Site#UNKNOWN} when outside every site. */
    public Site siteOf(long hi, long lo) {
        return site(siteTable.lookup(hi, lo));
    }

    /** The listed host at an address, or empty. */
    public java.util.Optional<Host> hostAt(long hi, long lo) {
        int h = hostIndex.get(hi, lo);
        return h < 0 ? java.util.Optional.empty() : java.util.Optional.of(hosts[h]);
    }

    /** What the rules look at for this flow (responder role and site), for explain and tests. */
    public FlowFacts facts(Flow f) {
        Role role = hostAt(f.dstHi(), f.dstLo()).map(Host::role).orElse(Role.NONE);
        return new FlowFacts(f, role, siteOf(f.dstHi(), f.dstLo()));
    }

    /** Human explanation of how the flow is classified; see {@link Explainer}. */
    public String explain(Flow f) {
        return new Explainer(this).explain(f);
    }

    private Site site(int id) {
        return id < 0 ? Site.UNKNOWN : sites[id];
    }
}
