package io.siteflow.rules.isolation;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.observer.ObserverRule;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the records of one isolation edge — client address, server address, server port, protocol — add up to, with
 * the evidence an auditor reads: the decision and rule of its first record, groups and sites of both ends, IP bytes
 * and packets of both directions (as {@code crossBytes} counts them), flows, first and last seen. Records of one
 * edge may be decided differently (a flow whose L7 was detected and one whose was not): {@link #plus} keeps the
 * earlier edge's decision and adds the counts, so the offline check, the topology and the API sum the same way when
 * they are fed the edge's violating (or allowed) records. Immutable.
 *
 * @param client       the initiator's address
 * @param server       the responder's address
 * @param serverPort   the responder's port (0 for a protocol without ports)
 * @param proto        IANA protocol number
 * @param observer     the observer whose records the edge counts ({@code ObserverRule.observerOf}: the agent, or
 *                     {@code AGENT@EXPORTER} for a collector's record): the first a record of the edge came from
 *                     (records of the same edge from other observers are not added, so a flow seen by a host agent
 *                     and an edge agent, or by two exporters, counts once)
 * @param decision     the policy's decision on the edge's first record
 * @param rule         the rule that decided it, empty for UNLISTED
 * @param violates     whether that decision is a violation
 * @param category     the first record's category
 * @param l7           the first record's detected L7 protocol wire name ({@code unknown} when none)
 * @param fromGroups   the client's groups ({@code any} left out)
 * @param toGroups     the server's groups ({@code any} left out)
 * @param clientSite   the client's site
 * @param serverSite   the server's site
 * @param bytes        IP bytes, both directions
 * @param packets      packets, both directions
 * @param flows        flows: records that end a flow, at least 1 (a flow still running counts once)
 * @param firstSeenMs  epoch ms of the first packet
 * @param lastSeenMs   epoch ms of the last packet
 * @param nearestAllow for a violation, the allow rule it came closest to
 */
public record IsolationEdge(String client, String server, int serverPort, int proto, String observer,
                            Decision decision, String rule,
                            boolean violates, Category category, String l7, List<String> fromGroups,
                            List<String> toGroups, String clientSite, String serverSite, long bytes, long packets,
                            long flows, long firstSeenMs, long lastSeenMs, Optional<NearestAllow> nearestAllow) {
    public IsolationEdge {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(observer, "observer");
        Objects.requireNonNull(decision, "decision");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(l7, "l7");
        Objects.requireNonNull(clientSite, "clientSite");
        Objects.requireNonNull(serverSite, "serverSite");
        Objects.requireNonNull(nearestAllow, "nearestAllow");
        fromGroups = List.copyOf(fromGroups);
        toGroups = List.copyOf(toGroups);
    }

    /**
     * The edge of one decided record.
     *
     * @param r the record
     * @param c its classification
     * @param d the policy's decision on it ({@link IsolationEvaluator#decide})
     * @param e the evaluator that decided (for group names and the nearest allow rule)
     */
    public static IsolationEdge of(FlowRecord r, Classification c, IsolationDecision d, IsolationEvaluator e) {
        io.siteflow.rules.model.Flow f = io.siteflow.rules.classify.Classifier.flowOf(r);
        return new IsolationEdge(r.src(), r.dst(), r.dstPort(), r.proto(), ObserverRule.observerOf(r), d.decision(), d.rule(), d.violates(),
                c.category(), r.l7Protocol().wireName(), named(e.groupNames(d.fromGroups())),
                named(e.groupNames(d.toGroups())), c.srcSite().name(), c.dstSite().name(), r.totalBytes(),
                r.totalPackets(), r.isFinal() ? 1 : 0, r.start(), r.end(),
                d.violates() ? e.nearestAllow(f, c) : Optional.empty());
    }

    /**
     * The edge of another record of this edge with the same category and L7 under the same evaluator: what
     * {@link #of} gives for that record (the same decision, groups and nearest allow rule, which depend on nothing
     * else), with its observer and counts, without deciding again (the topology's isolation stage keeps one such
     * edge per edge, category and L7).
     *
     * @throws IllegalArgumentException when the record is not of this edge
     */
    public IsolationEdge withRecord(FlowRecord r) {
        if (!r.src().equals(client) || !r.dst().equals(server) || r.dstPort() != serverPort || r.proto() != proto) {
            throw new IllegalArgumentException("record " + key(r.src(), r.dst(), r.dstPort(), r.proto())
                    + " is not of edge " + key());
        }
        return new IsolationEdge(client, server, serverPort, proto, ObserverRule.observerOf(r), decision, rule, violates, category, l7,
                fromGroups, toGroups, clientSite, serverSite, r.totalBytes(), r.totalPackets(), r.isFinal() ? 1 : 0,
                r.start(), r.end(), nearestAllow);
    }

    /** The key of the edge, {@code client|server|serverPort|proto}: one per edge in stores, topics and maps. */
    public String key() {
        return key(client, server, serverPort, proto);
    }

    /** The key of an edge. */
    public static String key(String client, String server, int serverPort, int proto) {
        return client + "|" + server + "|" + serverPort + "|" + proto;
    }

    /**
     * The key of the edge's entry among a period's edges, {@code key()|violating} or {@code key()|allowed}: an edge's
     * violating records and its other records are summed apart (with {@link #plus}), so that T3 on the database port
     * is not hidden inside the allowed TNS edge of the same client, server and port, nor the TNS counted as a
     * violation. A period has at most one violating entry per edge.
     */
    public String entryKey() {
        return key() + (violates ? "|violating" : "|allowed");
    }

    /**
     * The finest entry of the edge's records, {@code key()|category|l7}: everything a decision depends on besides the
     * edge itself, so records of one part key were decided alike (under one policy). The topology keeps and queries
     * edges in these parts; the report folds them by {@link #entryKey} and a proposal by this key.
     */
    public String partKey() {
        return key() + "|" + category.name() + "|" + l7;
    }

    /** Flows as reported: ended flows, at least one. */
    public long flowsReported() {
        return Math.max(1, flows);
    }

    /** This edge with another part of the same edge added: counts summed, times widened, the evidence of this one. */
    public IsolationEdge plus(IsolationEdge later) {
        if (!key().equals(later.key())) {
            throw new IllegalArgumentException("edges differ: " + key() + " and " + later.key());
        }
        return new IsolationEdge(client, server, serverPort, proto, observer, decision, rule, violates, category, l7, fromGroups,
                toGroups, clientSite, serverSite, bytes + later.bytes, packets + later.packets, flows + later.flows,
                Math.min(firstSeenMs, later.firstSeenMs), Math.max(lastSeenMs, later.lastSeenMs), nearestAllow);
    }

    private static List<String> named(List<String> groups) {
        return groups.stream().filter(g -> !g.equals(io.siteflow.rules.model.IsolationPolicy.ANY)).toList();
    }
}
