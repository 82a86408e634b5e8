package io.siteflow.rules.model;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The responder port ({@code dstPort}, the server side) is in one of the ranges. A flow without ports
 * (port 0) never matches.
 *
 * @param ranges the accepted ports, never empty
 */
public record PortMatch(List<PortRange> ranges) implements Match {
    public PortMatch {
        ranges = List.copyOf(ranges);
    }

    public boolean matchesPort(int port) {
        for (PortRange r : ranges) {
            if (r.contains(port)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean matches(FlowFacts facts) {
        return matchesPort(facts.flow().dstPort());
    }

    @Override
    public boolean covers(Match other) {
        if (!(other instanceof PortMatch o)) {
            return false;
        }
        for (PortRange r : o.ranges) {
            for (int p = r.low(); p <= r.high(); p++) {
                if (!matchesPort(p)) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public String key() {
        return "ports";
    }

    @Override
    public String values() {
        return ranges.stream().map(PortRange::toString).collect(Collectors.joining(","));
    }

    @Override
    public String actual(FlowFacts facts) {
        return "dstPort " + facts.flow().dstPort();
    }
}
