package io.siteflow.rules.model;

import io.siteflow.model.L7Protocol;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The application protocol detected on the flow is one of these. A flow whose protocol was not recognised
 * ({@link L7Protocol#UNKNOWN}) never matches.
 *
 * @param protocols accepted protocols, never empty, never {@link L7Protocol#UNKNOWN}
 */
public record L7Match(List<L7Protocol> protocols) implements Match {
    public L7Match {
        protocols = List.copyOf(protocols);
    }

    @Override
    public boolean matches(FlowFacts facts) {
        return protocols.contains(facts.flow().l7());
    }

    @Override
    public boolean covers(Match other) {
        return other instanceof L7Match o && protocols.containsAll(o.protocols);
    }

    @Override
    public String key() {
        return "l7";
    }

    @Override
    public String values() {
        return protocols.stream().map(L7Protocol::wireName).collect(Collectors.joining(","));
    }

    @Override
    public String actual(FlowFacts facts) {
        L7Protocol p = facts.flow().l7();
        return "l7 " + (p == L7Protocol.UNKNOWN ? "(none detected)" : p.wireName());
    }
}
