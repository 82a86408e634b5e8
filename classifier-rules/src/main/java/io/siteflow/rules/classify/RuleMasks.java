package io.siteflow.rules.classify;

import io.siteflow.model.Cidr;
import io.siteflow.model.L7Protocol;
import io.siteflow.rules.model.CidrMatch;
import io.siteflow.rules.model.Flow;
import io.siteflow.rules.model.FlowFacts;
import io.siteflow.rules.model.L7Match;
import io.siteflow.rules.model.Match;
import io.siteflow.rules.model.PeerRoleMatch;
import io.siteflow.rules.model.PeerSiteMatch;
import io.siteflow.rules.model.PortMatch;
import io.siteflow.rules.model.ProtoMatch;
import io.siteflow.rules.model.Role;
import io.siteflow.rules.model.Rule;
import io.siteflow.rules.model.Site;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The rules compiled into bit sets, one per value of each flow dimension (protocol, responder port, responder
 * role, responder site, responder network, L7 protocol): bit r of a dimension's set for value v says that
 * rule r accepts v on that dimension (or has no condition on it). The first rule of a flow is the lowest bit
 * of the AND of its six sets. Read-only after construction; thread-safe.
 */
final class RuleMasks {
    final int words;
    final long[] proto;
    final char[] portClass;
    final long[] port;
    final long[] role;
    final long[] site;
    final long[] cidr;
    final long[] l7;
    final PrefixTable cidrTable;
    final Map<String, Integer> roleIds;

    RuleMasks(List<Rule> rules, List<Site> sites, Map<String, Integer> roleIds) {
        this.roleIds = roleIds;
        words = Math.max(1, (rules.size() + 63) / 64);
        proto = build(rules, 256, v -> new Flow(v, 0, 0, 0, 0, 0, 0, L7Protocol.UNKNOWN), ProtoMatch.class, null);
        role = build(rules, roleIds.size() + 1, null, PeerRoleMatch.class, roleFacts(roleIds));
        site = build(rules, sites.size() + 1, null, PeerSiteMatch.class, siteFacts(sites));
        L7Protocol[] all = L7Protocol.values();
        l7 = build(rules, all.length, v -> new Flow(0, 0, 0, 0, 0, 0, 0, all[v]), L7Match.class, null);
        portClass = new char[65536];
        port = ports(rules);
        List<Cidr> nets = new ArrayList<>();
        rules.forEach(r -> r.matches().forEach(m -> {
            if (m instanceof CidrMatch c) {
                c.cidrs().stream().filter(x -> !nets.contains(x)).forEach(nets::add);
            }
        }));
        cidr = new long[(nets.size() + 1) * words];
        fill(cidr, 0, rules, m -> false, CidrMatch.class);
        for (int i = 0; i < nets.size(); i++) {
            Cidr n = nets.get(i);
            fill(cidr, i + 1, rules, m -> ((CidrMatch) m).cidrs().stream()
                    .anyMatch(c -> c.bits() <= n.bits() && c.contains(n.hi(), n.lo())), CidrMatch.class);
        }
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < nets.size(); i++) {
            ids.add(i + 1);
        }
        cidrTable = new PrefixTable(nets, ids);
    }

    private static java.util.function.IntFunction<FlowFacts> roleFacts(Map<String, Integer> roleIds) {
        String[] names = new String[roleIds.size() + 1];
        roleIds.forEach((n, id) -> names[id] = n);
        return v -> new FlowFacts(new Flow(0, 0, 0, 0, 0, 0, 0, L7Protocol.UNKNOWN),
                v == 0 ? Role.NONE : new Role(names[v]), Site.UNKNOWN);
    }

    private static java.util.function.IntFunction<FlowFacts> siteFacts(List<Site> sites) {
        return v -> new FlowFacts(new Flow(0, 0, 0, 0, 0, 0, 0, L7Protocol.UNKNOWN), Role.NONE,
                v == 0 ? Site.UNKNOWN : sites.get(v - 1));
    }

    /** Masks for values 0..n-1 of a dimension whose condition kind is {@code kind}. */
    private long[] build(List<Rule> rules, int n, java.util.function.IntFunction<Flow> flowOf,
                         Class<? extends Match> kind, java.util.function.IntFunction<FlowFacts> factsOf) {
        long[] out = new long[n * words];
        for (int v = 0; v < n; v++) {
            FlowFacts f = factsOf != null ? factsOf.apply(v) : new FlowFacts(flowOf.apply(v), Role.NONE, Site.UNKNOWN);
            fill(out, v, rules, m -> m.matches(f), kind);
        }
        return out;
    }

    /** Sets, in row {@code row}, the bit of every rule that has no {@code kind} condition or whose one passes. */
    private void fill(long[] out, int row, List<Rule> rules, Predicate<Match> accepts, Class<? extends Match> kind) {
        for (int r = 0; r < rules.size(); r++) {
            boolean ok = true;
            for (Match m : rules.get(r).matches()) {
                if (kind.isInstance(m) && !accepts.test(m)) {
                    ok = false;
                }
            }
            if (ok) {
                out[row * words + (r >>> 6)] |= 1L << (r & 63);
            }
        }
    }

    /**
     * Port masks interned into classes: ports between two consecutive range boundaries of any rule accept the
     * same rules, so one row is computed per segment and equal rows are shared.
     */
    private long[] ports(List<Rule> rules) {
        java.util.TreeSet<Integer> cuts = new java.util.TreeSet<>(List.of(0, 65536));
        rules.forEach(r -> r.matches().forEach(m -> {
            if (m instanceof PortMatch pm) {
                pm.ranges().forEach(x -> {
                    cuts.add(x.low());
                    cuts.add(x.high() + 1);
                });
            }
        }));
        Map<LongArrayKey, Integer> classes = new HashMap<>();
        List<long[]> rows = new ArrayList<>();
        Integer[] bounds = cuts.toArray(new Integer[0]);
        for (int i = 0; i + 1 < bounds.length; i++) {
            long[] row = portRow(rules, bounds[i]);
            int id = classes.computeIfAbsent(new LongArrayKey(row), k -> {
                rows.add(row);
                return rows.size() - 1;
            });
            Arrays.fill(portClass, bounds[i], bounds[i + 1], (char) id);
        }
        long[] out = new long[rows.size() * words];
        for (int i = 0; i < rows.size(); i++) {
            System.arraycopy(rows.get(i), 0, out, i * words, words);
        }
        return out;
    }

    private long[] portRow(List<Rule> rules, int port) {
        long[] row = new long[words];
        for (int r = 0; r < rules.size(); r++) {
            boolean ok = true;
            for (Match m : rules.get(r).matches()) {
                if (m instanceof PortMatch pm && !pm.matchesPort(port)) {
                    ok = false;
                }
            }
            if (ok) {
                row[r >>> 6] |= 1L << (r & 63);
            }
        }
        return row;
    }

    private record LongArrayKey(long[] a) {
        @Override
        public boolean equals(Object o) {
            return o instanceof LongArrayKey k && Arrays.equals(a, k.a);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(a);
        }
    }
}
