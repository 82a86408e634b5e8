package io.siteflow.rules.isolation;

import java.util.List;
import java.util.Objects;

/**
 * The allow rule a violating flow came closest to, and the conditions it failed (each {@code key: actual not in
 * [values]}): what an auditor reads to see whether the policy or the traffic is wrong. Immutable.
 *
 * @param rule   the allow rule's name
 * @param failed its failed conditions in the order from, to, categories, ports, proto, l7
 */
public record NearestAllow(String rule, List<String> failed) {
    public NearestAllow {
        Objects.requireNonNull(rule, "rule");
        failed = List.copyOf(failed);
    }
}
