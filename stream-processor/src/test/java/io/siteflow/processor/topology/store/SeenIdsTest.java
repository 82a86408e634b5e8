package io.siteflow.processor.topology.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SeenIdsTest {

    @Test
    void anIdAddedIsNeverCertainlyNew() {
        SeenIds f = new SeenIds(Long.MIN_VALUE);
        for (int i = 0; i < 100_000; i++) {
            f.add("run-" + i, 1_000 + i);
        }
        for (int i = 0; i < 100_000; i++) {
            assertFalse(f.certainlyNew("run-" + i, 1_000 + i), "run-" + i);
        }
    }

    @Test
    void mostIdsNeverAddedAreCertainlyNew() {
        SeenIds f = new SeenIds(Long.MIN_VALUE);
        for (int i = 0; i < 100_000; i++) {
            f.add("run-" + i, 1_000);
        }
        int unsure = 0;
        for (int i = 100_000; i < 200_000; i++) {
            unsure += f.certainlyNew("run-" + i, 1_000) ? 0 : 1;
        }
        // 100 k ids in a filter sized for 4 M: false positives are far below 1%
        assertTrue(unsure < 100, "false positives: " + unsure);
    }

    @Test
    void timesAtOrBeforeTheStoresNewestAreNotCovered() {
        SeenIds f = new SeenIds(5_000);
        assertFalse(f.certainlyNew("a-1", 5_000));
        assertFalse(f.certainlyNew("a-1", 4_000));
        assertTrue(f.certainlyNew("a-1", 5_001));
        assertEquals(5_000, f.coveredAfter());
    }

    @Test
    void aFullFilterStartsAgainCoveringOnlyLaterTimes() {
        SeenIds f = new SeenIds(Long.MIN_VALUE);
        for (int i = 0; i < SeenIds.CAPACITY; i++) {
            f.add("r-" + i, i);
        }
        f.add("r-next", SeenIds.CAPACITY);
        assertEquals(SeenIds.CAPACITY - 1, f.coveredAfter());
        assertFalse(f.certainlyNew("r-0", 0), "forgotten ids fall back to the store");
        assertFalse(f.certainlyNew("r-next", SeenIds.CAPACITY));
        assertEquals(SeenIds.CAPACITY, f.newest());
    }
}
