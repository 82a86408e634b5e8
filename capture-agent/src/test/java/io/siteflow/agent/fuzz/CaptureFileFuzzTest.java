package io.siteflow.agent.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.capture.file.CaptureFileReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Fuzz harnesses for the capture-file reader ({@link CaptureFileReader}: pcap, pcapng, either gzip-compressed).
 * Any file is read to its end or stops with a {@link CaptureFileException} naming the file and a byte offset
 * inside it; every packet handed out lies inside the buffer it is handed out in. The gzip harness compresses
 * the fuzzer's bytes first, so that the mutations reach the reader behind the decompressor. Seeds:
 * {@code src/test/resources/io/siteflow/agent/fuzz/CaptureFileFuzzTestInputs/}; docs/FUZZING.md.
 */
class CaptureFileFuzzTest {
    private static Path dir;

    @BeforeAll
    static void createDirectory() throws IOException {
        dir = Files.createTempDirectory("capture-fuzz");
    }

    @AfterAll
    static void deleteDirectory() throws IOException {
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }

    @FuzzTest
    void readsOrStopsAtAnOffsetInTheFile(byte[] capture) throws IOException {
        read(dir.resolve("fuzz.pcap"), capture, capture.length);
    }

    @FuzzTest
    void readsGzipCompressedCaptures(byte[] capture) throws IOException {
        read(dir.resolve("fuzz.pcap.gz"), gzip(capture), capture.length);
    }

    /** {@code streamLength}: bytes the reader sees (after decompression), the bound for error offsets. */
    private static void read(Path file, byte[] content, long streamLength) throws IOException {
        Files.write(file, content);
        try (CaptureFileReader reader = CaptureFileReader.open(file)) {
            long[] packets = new long[1];
            reader.run((ts, linkType, data, offset, captured, wire) -> {
                assertThat(offset).isBetween(0, data.length);
                assertThat(captured).isBetween(0, data.length - offset);
                assertThat(linkType).isBetween(0, 0xFFFF);
                packets[0]++;
            });
            assertThat(reader.stats().received()).isEqualTo(packets[0]);
        } catch (CaptureFileException e) {
            assertThat(e.getMessage()).startsWith(file + ":");
            assertThat(e.kind()).isNotNull();
            assertThat(e.offset()).as(e.getMessage()).isBetween(-1L, streamLength);
        }
    }

    private static byte[] gzip(byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(b.length / 2 + 32);
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(b);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
