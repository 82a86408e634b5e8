package io.siteflow.processor.query;

import io.siteflow.processor.topology.store.SeenRuns;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The record ids one pass over {@code siteflow.flows} has read, so that the what-if counts an agent's spooled
 * record sent again once, as the dedupe step does: an id of the agent's form {@code <run>-<counter>} is one bit
 * (4,096 counters of a run in one 512-byte chunk, the chunking of {@link SeenRuns}), any other id is kept as
 * itself. A pass over the soak's 7 days (≈ 2·10⁹ records of a few runs) holds ≈ 5·10⁵ chunks, ≈ 300 MB, where a
 * set of the ids held ≈ 100 bytes per record (≈ 200 GB: out of memory). Not thread-safe.
 */
final class SeenIdBits {
    private final Map<String, long[]> chunks = new HashMap<>();
    private final Set<String> others = new HashSet<>();
    /** The chunk of the last id of the agent's form: a run's records come in counter order. */
    private String lastKeyRun;
    private long lastN = -1;
    private long[] last;

    /** Marks {@code id} read; false when it had been read before. */
    boolean add(String id) {
        int dash = id.lastIndexOf('-');
        long counter = SeenRuns.counter(id, dash);
        if (counter < 0) {
            return others.add(id);
        }
        long n = SeenRuns.chunkOf(counter);
        long[] c = last;
        if (c == null || n != lastN || dash != lastKeyRun.length() || !id.startsWith(lastKeyRun)) {
            lastKeyRun = id.substring(0, dash);
            lastN = n;
            c = chunks.computeIfAbsent(lastKeyRun + '|' + n, k -> SeenRuns.newChunkBits());
            last = c;
        }
        return SeenRuns.markIn(c, counter);
    }

    /** Chunks of 4,096 counters held. */
    int chunks() {
        return chunks.size();
    }

    /** Ids of other forms held. */
    int others() {
        return others.size();
    }
}
