package io.siteflow.agent.flow;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Remembers the ports of first fragments so that later fragments of the same datagram join the
 * 5-tuple flow. Bounded (oldest entries go first); allocation only per fragmented datagram. Not
 * thread-safe.
 */
final class FragmentPorts {
    private static final int MAX_ENTRIES = 4096;

    private record Key(long srcHi, long srcLo, long dstHi, long dstLo, int proto, long id) {
    }

    private final Map<Key, Integer> ports = new LinkedHashMap<>(256, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Integer> eldest) {
            return size() > MAX_ENTRIES;
        }
    };

    void remember(long srcHi, long srcLo, long dstHi, long dstLo, int proto, long id, int srcPort, int dstPort) {
        ports.put(new Key(srcHi, srcLo, dstHi, dstLo, proto, id), (srcPort << 16) | dstPort);
    }

    /** Packed {@code srcPort << 16 | dstPort} as an unsigned value, or -1 when the first fragment was not seen. */
    long lookup(long srcHi, long srcLo, long dstHi, long dstLo, int proto, long id) {
        Integer v = ports.get(new Key(srcHi, srcLo, dstHi, dstLo, proto, id));
        return v == null ? -1 : v & 0xFFFF_FFFFL;
    }
}
