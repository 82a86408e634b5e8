package io.siteflow.rules.isolation;

import java.util.Objects;
import java.util.Optional;

/**
 * An observer whose view of a period cannot be trusted (it was silent, or dropped more than 0.1% of its packets):
 * the group pairs it covers are UNVERIFIED in that period, never ISOLATED. Immutable.
 *
 * @param agent  the observer's agent id
 * @param host   the address of the host it is the host agent of; empty for an edge agent, which covers every pair
 * @param reason what was wrong, e.g. {@code silent from 2026-12-03T09:00:00Z to 2026-12-03T09:05:00Z}
 */
public record Unverified(String agent, Optional<String> host, String reason) {
    public Unverified {
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(reason, "reason");
    }
}
