package io.siteflow.rules.isolation;

import io.siteflow.rules.audit.AuditCsv;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code siteflow isolation check --format csv}: a header row, then one row per violating edge in the report's order
 * (docs/RULES.md, "Isolation policy", "CSV"); groups separated by spaces, failed conditions by {@code "; "}; RFC 4180
 * quoting and CRLF line ends, as {@code audit --format csv}. Every row ends with the report's provenance — policy and
 * site-model versions and the period — so a row copied out of the file still says what it was judged against (the
 * group pairs' states are in the JSON). Thread-safe (stateless).
 */
public final class IsolationCsv {
    /** The columns, in order. */
    public static final List<String> HEADER = List.of("decision", "rule", "client", "server", "serverPort", "proto",
            "category", "l7", "fromGroups", "toGroups", "clientSite", "serverSite", "bytes", "packets", "flows",
            "firstSeenMs", "lastSeenMs", "observer", "nearestAllow", "failed", "policy", "model", "periodFromMs",
            "periodToMs");

    private IsolationCsv() {
    }

    public static String render(IsolationReport r) {
        StringBuilder sb = new StringBuilder();
        line(sb, HEADER);
        for (IsolationEdge e : r.violations()) {
            line(sb, List.of(e.decision().name(), e.rule(), e.client(), e.server(), Integer.toString(e.serverPort()),
                    Integer.toString(e.proto()), e.category().name(), e.l7(), String.join(" ", e.fromGroups()),
                    String.join(" ", e.toGroups()), e.clientSite(), e.serverSite(), Long.toString(e.bytes()),
                    Long.toString(e.packets()), Long.toString(e.flowsReported()), Long.toString(e.firstSeenMs()),
                    Long.toString(e.lastSeenMs()), e.observer(), e.nearestAllow().map(NearestAllow::rule).orElse(""),
                    e.nearestAllow().map(a -> String.join("; ", a.failed())).orElse(""), r.policyVersion(),
                    r.modelVersion(), Long.toString(r.fromMs()), Long.toString(r.toMs())));
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, List<String> cells) {
        sb.append(cells.stream().map(AuditCsv::quote).collect(Collectors.joining(","))).append("\r\n");
    }
}
