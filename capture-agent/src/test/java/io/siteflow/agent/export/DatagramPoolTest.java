package io.siteflow.agent.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The receive pool hands datagrams from the receiving thread to the decoding thread in order, with their socket,
 * exporter and receive time, across the end of its array; what its free space cannot take is refused, exactly.
 */
class DatagramPoolTest {

    private static ByteBuffer datagram(int length, int seq) {
        ByteBuffer b = ByteBuffer.allocate(length);
        for (int i = 0; i < length; i++) {
            b.put(i, (byte) (seq + i));
        }
        return b;
    }

    @Test
    void givesDatagramsBackInOrderWithSocketExporterAndTimeAcrossTheEndOfTheArray() {
        DatagramPool pool = new DatagramPool(DatagramPool.MIN_CAPACITY);
        ByteBuffer into = ByteBuffer.allocate(65536);
        int next = 0; // the next sequence number to be read
        // lengths that do not divide the pool: entries wrap to the start of the array many times; the reader stays
        // three entries behind (at most 27,000 bytes), so several are held at once
        for (int seq = 0; seq < 3_000; seq++) {
            assertThat(pool.offer(datagram(length(seq), seq), seq % 2, seq % 300, 1_764_000_000_000L + seq)).isTrue();
            if (seq - next >= 3) {
                expect(pool, into, next++);
            }
        }
        while (next < 3_000) {
            expect(pool, into, next++);
        }

        assertThat(pool.poll(into)).isEqualTo(-1);
        assertThat(pool.used()).isZero();
    }

    private static int length(int seq) {
        return 1 + seq * 7919 % 9_000;
    }

    private static void expect(DatagramPool pool, ByteBuffer into, int seq) {
        int tag = pool.poll(into);
        assertThat(tag >>> 16).as("socket of %d", seq).isEqualTo(seq % 2);
        assertThat(tag & 0xFFFF).as("exporter of %d", seq).isEqualTo(seq % 300);
        assertThat(pool.polledMs()).isEqualTo(1_764_000_000_000L + seq);
        assertThat(into.position()).isZero();
        assertThat(into).isEqualTo(datagram(length(seq), seq));
    }

    @Test
    void refusesExactlyWhatTheFreeSpaceCannotTakeAndTakesMoreOnceOneIsRead() {
        int length = 1_000;
        int fit = 70;
        DatagramPool pool = new DatagramPool(fit * DatagramPool.entryBytes(length));
        ByteBuffer into = ByteBuffer.allocate(65536);
        int taken = 0;
        for (int seq = 0; seq < fit + 25; seq++) {
            taken += pool.offer(datagram(length, seq), 0, 1, seq) ? 1 : 0;
        }

        assertThat(DatagramPool.entryBytes(length)).isEqualTo(16 + 1_000);
        assertThat(taken).isEqualTo(fit);
        assertThat(pool.used()).isEqualTo(pool.capacity());
        assertThat(pool.poll(into)).isEqualTo(1);
        assertThat(into).isEqualTo(datagram(length, 0));
        assertThat(pool.offer(datagram(length, 95), 0, 1, 95)).isTrue();
        assertThat(pool.offer(datagram(length, 96), 0, 1, 96)).isFalse();
    }

    @Test
    void takesTheLargestDatagramIntoTheSmallestPool() {
        DatagramPool pool = new DatagramPool(DatagramPool.MIN_CAPACITY);
        ByteBuffer into = ByteBuffer.allocate(65536);

        assertThat(pool.offer(datagram(65_535, 3), 1, 65_535, 7)).isTrue();
        assertThat(pool.offer(datagram(1, 4), 0, 0, 8)).isFalse();
        assertThat(pool.poll(into)).isEqualTo(1 << 16 | 65_535);
        assertThat(into).isEqualTo(datagram(65_535, 3));
        assertThat(pool.offer(datagram(1, 4), 0, 0, 8)).isTrue();
    }

    @Test
    void rejectsAPoolThatCannotHoldTheLargestDatagram() {
        assertThatThrownBy(() -> new DatagramPool(65_551)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("receive pool of 65551 bytes: must be at least 65552");
    }

    @Test
    void handsEveryTakenDatagramFromOneThreadToAnotherInOrder() throws Exception {
        DatagramPool pool = new DatagramPool(DatagramPool.MIN_CAPACITY + 8 * 1_000);
        int count = 200_000;
        CompletableFuture<List<Integer>> refused = CompletableFuture.supplyAsync(() -> {
            List<Integer> r = new ArrayList<>();
            for (int seq = 0; seq < count; seq++) {
                ByteBuffer d = ByteBuffer.allocate(4 + seq % 1_500).putInt(0, seq);
                if (!pool.offer(d, 0, 0, seq)) {
                    r.add(seq);
                }
            }
            return r;
        });
        ByteBuffer into = ByteBuffer.allocate(65536);
        List<Integer> seen = new ArrayList<>();
        while (!refused.isDone() || pool.used() > 0) {
            if (pool.poll(into) >= 0) {
                assertThat(into.remaining()).isEqualTo(4 + into.getInt(0) % 1_500);
                assertThat(pool.polledMs()).isEqualTo(into.getInt(0));
                seen.add(into.getInt(0));
            }
        }
        List<Integer> left = refused.get(60, TimeUnit.SECONDS);

        assertThat(seen.size() + left.size()).isEqualTo(count);
        assertThat(seen).isSorted();
        List<Integer> all = new ArrayList<>(seen);
        all.addAll(left);
        assertThat(all).doesNotHaveDuplicates();
    }
}
