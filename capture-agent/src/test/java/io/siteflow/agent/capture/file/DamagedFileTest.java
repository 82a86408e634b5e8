package io.siteflow.agent.capture.file;

import static io.siteflow.agent.capture.file.TestCaptures.data;
import static io.siteflow.agent.capture.file.TestCaptures.gzip;
import static io.siteflow.agent.capture.file.TestCaptures.int64;
import static io.siteflow.agent.capture.file.TestCaptures.write;
import static java.nio.ByteOrder.BIG_ENDIAN;
import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.capture.CaptureFileException;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cuts and scrambles valid files: whatever the damage, the reader delivers packets inside its buffer
 * and fails only with {@link CaptureFileException}.
 */
class DamagedFileTest {
    @TempDir
    Path dir;

    private static byte[] samplePcap() {
        return TestCaptures.pcap(LITTLE_ENDIAN, false, 1).packet(1, 2, data(60, 1), 60).packet(3, 4, data(90, 2), 90)
                .packet(5, 6, data(10, 3), 70).packet(7, 8, data(33, 4), 33).bytes();
    }

    private static byte[] samplePcapng() {
        return TestCaptures.pcapng(BIG_ENDIAN).idb(1, 40, 9, new byte[] {9}, 14, int64(5, BIG_ENDIAN))
                .idb(101, 0).epb(1, 99, data(30, 1), 30).spb(data(40, 2), 50).block(4, data(21, 0))
                .pb(0, 5, data(12, 3), 12).epb(0, 7, data(9, 4), 9).bytes();
    }

    /** Opens and reads the bytes; true when the read ended without an exception. */
    private boolean readSafely(byte[] bytes, int bufferSize) throws Exception {
        Path file = write(dir.resolve("damaged"), bytes);
        try (CaptureFileReader reader = CaptureFileReader.open(file, bufferSize)) {
            reader.run((ts, link, buf, offset, cap, wire) -> {
                assertThat(offset).isNotNegative();
                assertThat(cap).isNotNegative();
                assertThat(offset + cap).isLessThanOrEqualTo(buf.length);
                assertThat(wire).isNotNegative();
            });
            return true;
        } catch (CaptureFileException expected) {
            return false;
        }
    }

    @Test
    void survivesEveryCut() throws Exception {
        for (byte[] sample : new byte[][] {samplePcap(), samplePcapng(), gzip(samplePcap())}) {
            for (int length = 0; length < sample.length; length++) {
                readSafely(Arrays.copyOf(sample, length), 32);
            }
            assertThat(readSafely(sample, 32)).isTrue();
        }
    }

    @Test
    void survivesScrambledBytes() throws Exception {
        SplittableRandom random = new SplittableRandom(20261129);
        for (byte[] sample : new byte[][] {samplePcap(), samplePcapng()}) {
            for (int round = 0; round < 1000; round++) {
                byte[] damaged = sample.clone();
                for (int flips = 1 + random.nextInt(4); flips > 0; flips--) {
                    damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
                }
                readSafely(damaged, 16 + random.nextInt(200));
            }
        }
    }
}
