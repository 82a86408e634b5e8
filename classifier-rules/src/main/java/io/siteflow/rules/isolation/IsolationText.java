package io.siteflow.rules.isolation;

import io.siteflow.rules.model.Protocols;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code siteflow isolation check --format text}: what a person reads first (docs/RULES.md, "Isolation policy",
 * "Text"): the outcome, the group × group matrix (rows initiators, columns responders), then each violating edge with
 * its evidence and the nearest allow rule's failed conditions, then model suspects and untrusted observers.
 * Thread-safe (stateless).
 */
public final class IsolationText {
    private IsolationText() {
    }

    public static String render(IsolationReport r) {
        StringBuilder sb = new StringBuilder();
        sb.append("siteflow isolation check: ").append(outcome(r)).append('\n');
        sb.append("  policy ").append(r.policyVersion()).append(", site model ").append(r.modelVersion()).append('\n');
        sb.append("  period ").append(Instant.ofEpochMilli(r.fromMs())).append(" .. ")
                .append(Instant.ofEpochMilli(r.toMs())).append('\n');
        matrix(sb, r.pairs());
        sb.append('\n').append(count(r.violations().size(), "violating edge", "violating edges"))
                .append(r.violations().isEmpty() ? "\n" : ":\n");
        int n = 1;
        for (IsolationEdge e : r.violations()) {
            edge(sb, n++, e);
        }
        if (!r.modelSuspects().isEmpty()) {
            sb.append('\n').append(count(r.modelSuspects().size(), "MODEL_SUSPECT", "MODEL_SUSPECTs")).append(":\n");
            r.modelSuspects().forEach(s -> sb.append("  ").append(s.message()).append('\n'));
        }
        if (!r.unverified().isEmpty()) {
            sb.append('\n').append(count(r.unverified().size(), "untrusted observer", "untrusted observers"))
                    .append(" (the pairs they cover are UNVERIFIED):\n");
            for (Unverified u : r.unverified()) {
                sb.append("  ").append(u.agent()).append(u.host().map(h -> " (host " + h + ")").orElse(" (every pair)"))
                        .append(": ").append(u.reason()).append('\n');
            }
        }
        return sb.toString();
    }

    /** The one-line outcome: NOT ISOLATED, UNVERIFIED or ISOLATED. */
    static String outcome(IsolationReport r) {
        if (r.violated()) {
            long bytes = r.violations().stream().mapToLong(IsolationEdge::bytes).sum();
            return "NOT ISOLATED (" + count(r.violations().size(), "violating edge", "violating edges") + ", "
                    + bytes + " bytes)";
        }
        if (r.pairs().stream().anyMatch(p -> p.state() == PairState.State.UNVERIFIED)) {
            return "UNVERIFIED (no violation seen, but not every observer was heard in full)";
        }
        return "ISOLATED (no violating edge)";
    }

    private static void matrix(StringBuilder sb, List<PairState> pairs) {
        Map<String, Map<String, String>> rows = new LinkedHashMap<>();
        for (PairState p : pairs) {
            String cell = switch (p.state()) {
                case ISOLATED -> "ok";
                case UNVERIFIED -> "UNVERIFIED";
                case NOT_ISOLATED -> "NOT_ISOLATED " + p.violatingBytes() + " B";
            };
            rows.computeIfAbsent(p.from(), k -> new LinkedHashMap<>()).put(p.to(), cell);
        }
        sb.append("\nGroup pairs (row: initiator's group, column: responder's group; ok = ISOLATED):\n");
        List<String> names = new ArrayList<>(rows.keySet());
        int first = "from \\ to".length();
        for (String n : names) {
            first = Math.max(first, n.length());
        }
        List<Integer> widths = new ArrayList<>(names.size());
        for (String to : names) {
            int w = to.length();
            for (Map<String, String> row : rows.values()) {
                w = Math.max(w, row.get(to).length());
            }
            widths.add(w);
        }
        StringBuilder header = new StringBuilder("  ").append(pad("from \\ to", first));
        for (int i = 0; i < names.size(); i++) {
            header.append("  ").append(pad(names.get(i), widths.get(i)));
        }
        sb.append(header.toString().stripTrailing()).append('\n');
        for (String from : names) {
            StringBuilder line = new StringBuilder("  ").append(pad(from, first));
            for (int i = 0; i < names.size(); i++) {
                line.append("  ").append(pad(rows.get(from).get(names.get(i)), widths.get(i)));
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
    }

    private static void edge(StringBuilder sb, int n, IsolationEdge e) {
        String decided = e.decision() == Decision.UNLISTED ? "UNLISTED (no rule allows it; default deny)"
                : e.decision() + " by " + e.rule();
        sb.append(String.format(Locale.ROOT, "  %d. %s -> %s:%d/%s  %s%n", n, e.client(), e.server(), e.serverPort(),
                Protocols.name(e.proto()), decided));
        sb.append("     ").append(end(e.clientSite(), e.fromGroups())).append(" -> ").append(end(e.serverSite(),
                e.toGroups())).append('\n');
        sb.append(String.format(Locale.ROOT, "     category %s, l7 %s; %d bytes, %d packets, %s; %s .. %s; observer %s%n",
                e.category(), e.l7(), e.bytes(), e.packets(), count(e.flowsReported(), "flow", "flows"),
                Instant.ofEpochMilli(e.firstSeenMs()), Instant.ofEpochMilli(e.lastSeenMs()), e.observer()));
        if (e.nearestAllow().isEmpty()) {
            sb.append("     nearest allow rule: none (the policy has no allow rule)\n");
            return;
        }
        NearestAllow a = e.nearestAllow().get();
        sb.append("     nearest allow rule ").append(a.rule()).append(a.failed().isEmpty()
                ? ": matches (a deny rule came first)" : ", failed:").append('\n');
        a.failed().forEach(f -> sb.append("       ").append(f).append('\n'));
    }

    private static String end(String site, List<String> groups) {
        return "site " + site + ", groups " + (groups.isEmpty() ? "(none)" : String.join(", ", groups));
    }

    private static String count(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(Math.max(0, width - s.length()));
    }
}
