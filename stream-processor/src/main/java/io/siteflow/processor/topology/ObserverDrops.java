package io.siteflow.processor.topology;

import io.siteflow.model.wire.Heartbeat;
import io.siteflow.rules.observer.ObserverRule;
import io.siteflow.rules.verdict.VerdictCalculator;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Whether an audited server's observer lost too much of what it observed for a verdict (DESIGN.md, "Verdict"): its
 * last heartbeat reports more than 0.1% lost. For a capture agent that is packets dropped, kernel and interface
 * together. For a flow collector ({@link Heartbeat#export()} present) it is export loss from sequence numbers, each
 * unit against its own total: flow records lost (NetFlow v5, IPFIX) against records decoded plus lost, and datagrams
 * lost (NetFlow v9 export packets, sFlow datagrams) against datagrams received plus lost; the collector's
 * {@code droppedKernel}, their sum in mixed units for older readers, is not read then. The one check behind the
 * window verdicts ({@link ObserverStore}), the cumulative ones and the period report's unverified agents (the query
 * side). Stateless; thread-safe.
 */
public final class ObserverDrops {
    private ObserverDrops() {
    }

    /**
     * @param observer   the server's observer (agent id, or {@code AGENT@EXPORTER}: its collector's heartbeat is
     *                   read), null when it has none yet
     * @param heartbeats an agent's last heartbeat JSON by agent id, null when none
     * @return false when there is no observer or no readable heartbeat of it
     */
    public static boolean aboveLimit(String observer, UnaryOperator<String> heartbeats) {
        if (observer == null) {
            return false;
        }
        return Heartbeat.parse(heartbeats.apply(ObserverRule.agentOf(observer))).flatMap(ObserverDrops::reason)
                .isPresent();
    }

    /**
     * Why this heartbeat's observer lost too much for a verdict, e.g. {@code dropped 2 of 1002 packets (more than
     * 0.1%)} or {@code lost 3 of 1085 export records (more than 0.1%)}; empty when it did not.
     */
    public static Optional<String> reason(Heartbeat h) {
        Heartbeat.Export e = h.export();
        if (e == null) {
            long dropped = h.droppedKernel() + h.droppedInterface();
            return VerdictCalculator.dropsAboveLimit(h.received(), dropped) ? Optional.of("dropped " + dropped
                    + " of " + (h.received() + dropped) + " packets (more than 0.1%)") : Optional.empty();
        }
        if (VerdictCalculator.dropsAboveLimit(e.records(), e.recordsLost())) {
            return Optional.of("lost " + e.recordsLost() + " of " + (e.records() + e.recordsLost())
                    + " export records (more than 0.1%)");
        }
        long datagramsLost = e.packetsLost() + e.sflowDatagramsLost();
        if (VerdictCalculator.dropsAboveLimit(e.datagrams(), datagramsLost)) {
            return Optional.of("lost " + datagramsLost + " of " + (e.datagrams() + datagramsLost)
                    + " export datagrams (more than 0.1%)");
        }
        return Optional.empty();
    }
}
