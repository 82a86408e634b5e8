package io.siteflow.processor.topology;

import io.siteflow.model.wire.Heartbeat;
import io.siteflow.rules.verdict.VerdictCalculator;
import java.util.function.UnaryOperator;

/**
 * Whether an audited server's observer dropped too many packets for a verdict (DESIGN.md, "Verdict"): its last
 * heartbeat reports more than 0.1% of packets dropped, kernel and interface together. The one check behind the
 * window verdicts ({@link ObserverStore}) and the cumulative ones (the query side). Stateless; thread-safe.
 */
public final class ObserverDrops {
    private ObserverDrops() {
    }

    /**
     * @param observer   the server's observer (agent id), null when it has none yet
     * @param heartbeats an agent's last heartbeat JSON by agent id, null when none
     * @return false when there is no observer or no readable heartbeat of it
     */
    public static boolean aboveLimit(String observer, UnaryOperator<String> heartbeats) {
        if (observer == null) {
            return false;
        }
        return Heartbeat.parse(heartbeats.apply(observer))
                .map(h -> VerdictCalculator.dropsAboveLimit(h.received(), h.droppedKernel() + h.droppedInterface()))
                .orElse(false);
    }
}
