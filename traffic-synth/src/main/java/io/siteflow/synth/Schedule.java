package io.siteflow.synth;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Exchanges planned for one TCP conversation by several independent event streams (heartbeats, messages),
 * applied in time order (equal times in the order added). Not thread-safe.
 */
final class Schedule {
    private record Step(long at, boolean fromClient, byte[] request, byte[] response, long think) {
    }

    private final List<Step> steps = new ArrayList<>();

    Schedule add(long at, boolean fromClient, byte[] request, byte[] response, long thinkNanos) {
        steps.add(new Step(at, fromClient, request, response, thinkNanos));
        return this;
    }

    /** Runs every step on {@code c} in time order. */
    void applyTo(TcpConversation c) {
        steps.sort(Comparator.comparingLong(Step::at));
        for (Step s : steps) {
            c.exchange(s.at(), s.fromClient(), s.request(), s.response(), s.think());
        }
    }
}
