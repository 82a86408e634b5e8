package io.siteflow.rules.isolation;

import java.util.Objects;

/**
 * The state of one group pair of an isolation report: did anything in group {@code from} reach group {@code to}
 * against the policy in the period (docs/RULES.md, "Isolation policy", "The report"). Immutable.
 *
 * @param from            the initiators' group
 * @param to              the responders' group
 * @param state           ISOLATED, NOT_ISOLATED or UNVERIFIED
 * @param violatingBytes  IP bytes (both directions) of the violating edges whose client is in {@code from} and
 *                        server in {@code to}; 0 unless NOT_ISOLATED
 */
public record PairState(String from, String to, State state, long violatingBytes) {
    public PairState {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(state, "state");
    }

    /** What an auditor may say of a group pair for a period. */
    public enum State {
        /** No violating edge, and every observer covering the pair saw the whole period. */
        ISOLATED,
        /** At least one violating edge from the one group to the other. */
        NOT_ISOLATED,
        /** No violating edge seen, but an observer covering the pair was silent, dropping or not read whole. */
        UNVERIFIED
    }
}
