package io.siteflow.rules.isolation;

import io.siteflow.model.IpAddresses;
import io.siteflow.model.L7Protocol;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.Protocols;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Proposes the {@code isolation:} block that allows exactly the traffic of a period (docs/RULES.md, "Proposing a
 * policy"): what {@code siteflow isolation propose} prints and {@code GET /api/isolation/propose} answers.
 * <ul>
 *   <li>Groups: one per WebLogic cluster of the site model, then one per role of the hosts in no cluster; a host is in
 *       exactly one (its cluster, else its role: the most specific), an address in a site that no host entry lists
 *       is {@code unlisted}. An edge is proposed from its client's group to its server's group, whatever groups of
 *       the model's own policy the ends are in.</li>
 *   <li>Rules: one allow rule per client group × server group × category × server port × protocol, with
 *       {@code l7: [x]} when every edge of the rule carried the same detected L7 protocol (none when one did not);
 *       each after a comment with its evidence: IP bytes, flows, first and last seen. Named
 *       {@code FROM-to-TO-CATEGORY-PORT}, with {@code -PROTO} for other protocols than TCP and without the port for
 *       protocols without ports, e.g. {@code soa_cluster-to-db-DB-1521}.</li>
 *   <li>Every edge of the inputs counts, whatever its decision; an edge with fewer than {@code minFlows} flows is
 *       left out and counted in a closing comment. {@code scope} is the model's policy's (cross-site without one),
 *       {@code default: deny}.</li>
 * </ul>
 * The block loads with its site model without errors or warnings ({@link #withBlock}). Stateless and thread-safe.
 */
public final class IsolationProposal {
    private IsolationProposal() {
    }

    /** What one proposed rule allows: the key its edges share. */
    private record Key(String from, String to, Category category, int port, int proto) {
    }

    /** The edges of one proposed rule, summed. */
    private static final class Evidence {
        long bytes;
        long flows;
        final Set<String> edges = new HashSet<>();
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        final Set<String> l7 = new LinkedHashSet<>();

        void add(IsolationEdge e) {
            bytes += e.bytes();
            flows += e.flowsReported();
            edges.add(e.key());
            first = Math.min(first, e.firstSeenMs());
            last = Math.max(last, e.lastSeenMs());
            l7.add(e.l7());
        }
    }

    /**
     * The entry of an edge's records in a proposal's inputs, {@code key()|category|l7}
     * ({@link IsolationInputsBuilder#forProposal}).
     */
    public static String entryKey(IsolationEdge e) {
        return e.partKey();
    }

    /**
     * The YAML text of an {@code isolation:} block allowing every edge of the inputs with at least {@code minFlows}
     * flows, from {@code isolation:} (after its header comment) to its last line, each line ending in a newline.
     *
     * @param inputs   the edges of a period and the evaluator of the site model in force; an entry's L7 and category
     *                 are its first record's, so inputs with an entry per edge, category and L7
     *                 ({@link IsolationInputsBuilder#forProposal}) give the exact proposal
     * @param minFlows the least flows an edge needs to be proposed (1 or less: every edge)
     */
    public static String propose(IsolationInputs inputs, int minFlows) {
        Classifier classifier = inputs.evaluator().classifier();
        ProposalGroups groups = new ProposalGroups(classifier.model());
        Map<Key, Evidence> rules = new TreeMap<>(order(groups));
        Evidence all = new Evidence();
        Evidence few = new Evidence();
        Evidence outside = new Evidence();
        Map<String, Long> flowsOfEdge = new HashMap<>();
        inputs.edges().forEach(e -> flowsOfEdge.merge(e.key(), e.flows(), Long::sum));
        for (IsolationEdge e : inputs.edges()) {
            all.add(e);
            if (Math.max(1, flowsOfEdge.get(e.key())) < minFlows) {
                few.add(e);
                continue;
            }
            if (!inSite(classifier, e.client()) || !inSite(classifier, e.server())) {
                outside.add(e);
                continue;
            }
            Key k = new Key(groups.groupOf(canonical(e.client())), groups.groupOf(canonical(e.server())), e.category(),
                    e.serverPort(), e.proto());
            rules.computeIfAbsent(k, x -> new Evidence()).add(e);
        }
        List<String> header = List.of("isolation policy proposed by siteflow from " + count(all.edges.size(), "edge")
                + (all.edges.isEmpty() ? "" : " seen " + time(all.first) + " to " + time(all.last))
                + ": it allows exactly that traffic (docs/RULES.md, \"Proposing a policy\")");
        List<PolicyYaml.Rule> allow = new ArrayList<>();
        Set<String> names = new HashSet<>();
        rules.forEach((k, ev) -> allow.add(rule(k, ev, names)));
        List<String> closing = new ArrayList<>();
        if (!few.edges.isEmpty()) {
            closing.add("left out: " + count(few.edges.size(), "edge") + " with fewer than " + count(minFlows, "flow") + " ("
                    + evidence(few) + ")");
        }
        if (!outside.edges.isEmpty()) {
            closing.add("left out: " + count(outside.edges.size(), "edge") + " with an end in no site (" + evidence(outside)
                    + ")");
        }
        return PolicyYaml.block(header, inputs.evaluator().policy().scope().text(), groups.groups(), allow, closing);
    }

    /**
     * The text of a site model with {@code block} in place of its {@code isolation:} block (the top-level key and
     * every line up to the next top-level key; comment lines just before that key stay), or appended when it has
     * none. The model must be in block style at the top level (as {@code sites import} writes it).
     */
    public static String withBlock(String modelText, String block) {
        List<String> lines = List.of(modelText.split("\n", -1));
        int start = -1;
        for (int i = 0; i < lines.size() && start < 0; i++) {
            if (lines.get(i).matches("isolation\\s*:.*")) {
                start = i;
            }
        }
        String body = block.endsWith("\n") ? block : block + "\n";
        if (start < 0) {
            return modelText + (modelText.isEmpty() || modelText.endsWith("\n") ? "" : "\n") + body;
        }
        int end = start + 1;
        while (end < lines.size() && !topLevelKey(lines.get(end))) {
            end++;
        }
        while (end - 1 > start && (lines.get(end - 1).isBlank() || lines.get(end - 1).startsWith("#"))) {
            end--;
        }
        StringBuilder sb = new StringBuilder();
        lines.subList(0, start).forEach(l -> sb.append(l).append('\n'));
        sb.append(body);
        sb.append(String.join("\n", lines.subList(end, lines.size())));
        return sb.toString();
    }

    private static boolean topLevelKey(String line) {
        return !line.isEmpty() && !Character.isWhitespace(line.charAt(0)) && line.charAt(0) != '#';
    }

    private static PolicyYaml.Rule rule(Key k, Evidence ev, Set<String> names) {
        String base = k.from() + "-to-" + k.to() + "-" + k.category().name() + (k.port() == 0 ? "" : "-" + k.port())
                + (k.proto() == Protocols.TCP ? "" : "-" + Protocols.name(k.proto()));
        String name = base;
        for (int n = 2; !names.add(name); n++) {
            name = base + "-" + n;
        }
        String l7 = ev.l7.size() == 1 ? ev.l7.iterator().next() : L7Protocol.UNKNOWN.wireName();
        return new PolicyYaml.Rule(List.of(evidence(ev)), name, List.of(k.from()), List.of(k.to()),
                List.of(k.category().name()), k.port() == 0 ? List.of() : List.of(Integer.toString(k.port())),
                List.of(Protocols.name(k.proto())),
                l7.equals(L7Protocol.UNKNOWN.wireName()) ? List.of() : List.of(l7));
    }

    /** Group pairs in the order of the groups, then category, port (0 last: a rule without ports), protocol. */
    private static Comparator<Key> order(ProposalGroups groups) {
        return Comparator.<Key>comparingInt(k -> groups.order(k.from())).thenComparing(Key::from)
                .thenComparingInt(k -> groups.order(k.to())).thenComparing(Key::to)
                .thenComparing(Key::category)
                .thenComparingInt(k -> k.port() == 0 ? Integer.MAX_VALUE : k.port())
                .thenComparingInt(Key::proto);
    }

    private static String evidence(Evidence ev) {
        return String.format(Locale.ROOT, "%,d bytes, %s, first %s, last %s", ev.bytes, count(ev.flows, "flow"),
                time(ev.first), time(ev.last));
    }

    private static String count(long n, String noun) {
        return String.format(Locale.ROOT, "%,d %s%s", n, noun, n == 1 ? "" : "s");
    }

    private static String time(long epochMs) {
        return Instant.ofEpochMilli(epochMs).toString();
    }

    private static boolean inSite(Classifier classifier, String address) {
        long[] a = IpAddresses.parse(address);
        return classifier.siteOf(a[0], a[1]).isKnown();
    }

    private static String canonical(String address) {
        long[] a = IpAddresses.parse(address);
        return IpAddresses.format(a[0], a[1]);
    }
}
