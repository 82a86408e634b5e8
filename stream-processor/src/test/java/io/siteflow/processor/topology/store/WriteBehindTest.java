package io.siteflow.processor.topology.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WriteBehindTest {
    private KeyValueStore<String, Long> store;

    @BeforeEach
    void store() {
        store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("s"), Serdes.String(), Serdes.Long())
                .withLoggingDisabled().build();
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>();
        store.init(context.getStateStoreContext(), store);
    }

    @Test
    void changesReachTheStoreOnlyOnFlush() {
        WriteBehind<Long> w = new WriteBehind<>(store);
        w.put("a", 1L);
        w.put("a", 2L);
        assertEquals(2L, w.get("a"));
        assertNull(store.get("a"));
        w.flush();
        assertEquals(2L, store.get("a"));
    }

    @Test
    void changeGivesTheLiveValueOrMakesOneAndEitherReachesTheStoreOnFlush() {
        store.put("a", 7L);
        WriteBehind<Long> w = new WriteBehind<>(store);
        assertEquals(7L, w.change("a", () -> 9L)); // the value there, not a new one
        assertEquals(5L, w.change("b", () -> 5L)); // none there: made
        assertEquals(5L, w.get("b"));
        assertNull(store.get("b"));
        w.flush();
        assertEquals(5L, store.get("b"));
        assertEquals(7L, store.get("a"));
    }

    @Test
    void readsThroughToTheStoreOnce() {
        store.put("a", 7L);
        WriteBehind<Long> w = new WriteBehind<>(store);
        assertEquals(7L, w.get("a"));
        store.put("a", 8L); // nobody else writes in real use: the view keeps what it read
        assertEquals(7L, w.get("a"));
        assertNull(w.get("missing"));
    }

    @Test
    void removeDeletesFromTheStoreAtOnceAndReturnsTheLiveValue() {
        store.put("a", 1L);
        WriteBehind<Long> w = new WriteBehind<>(store);
        w.put("a", 5L);
        assertEquals(5L, w.remove("a"));
        assertNull(store.get("a"));
        w.flush();
        assertNull(store.get("a"));
        assertNull(w.remove("never"));
    }

    @Test
    void discardForgetsUnflushedChangesAndReadsTheStoreAgain() {
        store.put("a", 1L);
        WriteBehind<Long> w = new WriteBehind<>(store);
        w.put("a", 9L);
        w.discard();
        w.flush();
        assertEquals(1L, store.get("a"));
        assertEquals(1L, w.get("a"));
    }

    @Test
    void aKeyRemovedAndSetAgainBeforeTheFlushIsWrittenWithItsNewValue() {
        WriteBehind<Long> w = new WriteBehind<>(store);
        w.put("a", 1L);
        w.put("b", 2L);
        w.remove("a");
        w.put("a", 3L);
        w.flush();
        assertEquals(3L, store.get("a"));
        assertEquals(2L, store.get("b"));
        w.remove("b");
        w.flush();
        assertNull(store.get("b"));
        assertEquals(3L, store.get("a"));
    }

    @Test
    void removingAKeyWhoseDeleteIsPendingDeletesItFromTheStore() {
        store.put("a", 1L);
        WriteBehind<Long> w = new WriteBehind<>(store);
        w.put("a", null);
        assertNull(w.remove("a"));
        w.flush();
        assertNull(store.get("a"));
    }

    @Test
    void liveValuesBeyondTheLimitAreDroppedAfterAFlushAndReadAgain() {
        WriteBehind<Long> w = new WriteBehind<>(store, 2);
        w.put("a", 1L);
        w.put("b", 2L);
        w.put("c", 3L);
        w.flush();
        store.put("a", 10L); // visible only because the live values were dropped
        assertEquals(10L, w.get("a"));
        w.put("d", 4L);
        w.flush();
        assertEquals(4L, store.get("d"));
    }
}
