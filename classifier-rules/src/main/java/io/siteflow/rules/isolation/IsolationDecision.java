package io.siteflow.rules.isolation;

import java.util.Objects;

/**
 * The decision on one flow. Immutable.
 *
 * @param decision   what the policy says
 * @param rule       the deny or allow rule that decided, empty for {@link Decision#UNLISTED}
 * @param violates   true for DENIED, and for UNLISTED under {@code default: deny}
 * @param fromGroups the initiator's groups, one bit each ({@link IsolationEvaluator#groupNames})
 * @param toGroups   the responder's groups
 */
public record IsolationDecision(Decision decision, String rule, boolean violates, long fromGroups, long toGroups) {
    public IsolationDecision {
        Objects.requireNonNull(decision, "decision");
        Objects.requireNonNull(rule, "rule");
    }
}
