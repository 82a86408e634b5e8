package io.siteflow.processor.topology;

import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/**
 * Reads a text value from a global table's store as a processor sees it (timestamped or plain). Stateless.
 */
final class GlobalText {
    private GlobalText() {
    }

    /** The value at {@code key}, or null. */
    @SuppressWarnings("unchecked")
    static String get(StateStore store, String key) {
        Object v = ((KeyValueStore<String, Object>) store).get(key);
        if (v instanceof ValueAndTimestamp<?> vt) {
            v = vt.value();
        }
        return (String) v;
    }
}
