package io.siteflow.processor.topology;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.processor.StateStore;

/**
 * Whether an agent has ever sent a heartbeat (its id is in the global agents store), asked for every record whose
 * server's host agent is not yet its observer, without a store read each time: the global thread counts every
 * heartbeat ({@link #changed()}), and a task remembers "absent" answers until the count moves. Shared by one
 * topology's tasks; the per-task {@link View} is not thread-safe.
 */
final class KnownAgents {
    private final AtomicLong version = new AtomicLong();

    /** A heartbeat (or its removal) arrived on the global thread. */
    void changed() {
        version.incrementAndGet();
    }

    /** A task's view over the global agents store. */
    View view(StateStore agents) {
        return new View(agents);
    }

    /** One task's cached answers. */
    final class View {
        private final StateStore agents;
        private final Map<String, Long> absentAt = new HashMap<>();

        private View(StateStore agents) {
            this.agents = agents;
        }

        /** True when {@code agent} has a heartbeat in the global agents store. */
        boolean known(String agent) {
            long v = version.get();
            Long absent = absentAt.get(agent);
            if (absent != null && absent == v) {
                return false;
            }
            if (GlobalText.get(agents, agent) != null) {
                absentAt.remove(agent);
                return true;
            }
            absentAt.put(agent, v);
            return false;
        }

        /** The agent's last heartbeat JSON, or null. */
        String heartbeat(String agent) {
            return GlobalText.get(agents, agent);
        }
    }
}
