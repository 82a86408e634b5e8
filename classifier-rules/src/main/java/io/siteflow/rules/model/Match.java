package io.siteflow.rules.model;

/**
 * One condition of a {@link Rule}. A rule matches a flow when every one of its conditions does; a condition
 * matches when the flow has any one of the listed values. Conditions on hosts, sites, addresses and ports
 * look at the responder (the server side, {@code dst}); {@code proto} and {@code l7} at the flow.
 * Implementations are immutable records; thread-safe.
 */
public sealed interface Match permits PortMatch, ProtoMatch, PeerRoleMatch, PeerSiteMatch, CidrMatch, L7Match {

    /** True when the flow satisfies this condition. */
    boolean matches(FlowFacts facts);

    /**
     * True when every flow this condition accepts is also accepted by {@code this}; false for a condition of
     * another kind. Used to find rules that can never match.
     */
    boolean covers(Match other);

    /** The {@code sites.yaml} key of this condition, e.g. {@code ports}. */
    String key();

    /** The accepted values as a canonical, comma-separated list, e.g. {@code 1521,2483-2484}. */
    String values();

    /** What the flow has for this condition, e.g. {@code dstPort 1521}. */
    String actual(FlowFacts facts);

    /** Human text for explain: {@code dstPort 1521 is in ports 1521,2483-2484} or {@code ... is not in ...}. */
    default String explain(FlowFacts facts) {
        return actual(facts) + (matches(facts) ? " is in " : " is not in ") + key() + " " + values();
    }
}
