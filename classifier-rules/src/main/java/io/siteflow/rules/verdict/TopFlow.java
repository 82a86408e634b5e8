package io.siteflow.rules.verdict;

import io.siteflow.rules.model.Category;
import java.util.Objects;

/**
 * One of the largest non-DB flows of an audited pair: where the bytes that spoil the DB share go.
 *
 * @param proto    IANA protocol number
 * @param src      initiator address
 * @param srcPort  initiator port
 * @param dst      responder address
 * @param dstPort  responder port
 * @param l7       detected protocol wire name, {@code ""} when none
 * @param category its category
 * @param rule     the rule that classified it, {@code "(none)"} when none did
 * @param bytes    IP bytes, both directions
 */
public record TopFlow(int proto, String src, int srcPort, String dst, int dstPort, String l7, Category category,
                      String rule, long bytes) {
    public TopFlow {
        Objects.requireNonNull(src, "src");
        Objects.requireNonNull(dst, "dst");
        Objects.requireNonNull(l7, "l7");
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(rule, "rule");
    }

    /** The flow's identity without its byte count. */
    String key() {
        return proto + " " + src + " " + srcPort + " " + dst + " " + dstPort;
    }

    TopFlow plus(long more) {
        return new TopFlow(proto, src, srcPort, dst, dstPort, l7, category, rule, bytes + more);
    }
}
