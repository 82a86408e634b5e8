package io.siteflow.rules.verdict;

import java.util.Objects;

/**
 * One audited pair a classified flow counts for, and how: which end of the flow is the pair's server.
 * Immutable.
 *
 * @param pair          the audited pair
 * @param initiator     true when the server is the flow's initiator ({@code src}), false when it is the responder
 * @param remoteAddress the other end of the flow, an address of the pair's remote site (canonical text)
 */
public record AuditSide(AuditPair pair, boolean initiator, String remoteAddress) {
    public AuditSide {
        Objects.requireNonNull(pair, "pair");
        Objects.requireNonNull(remoteAddress, "remoteAddress");
    }

    /** The server's address (canonical text), the key a flow is audited under. */
    public String server() {
        return pair.server().address();
    }
}
