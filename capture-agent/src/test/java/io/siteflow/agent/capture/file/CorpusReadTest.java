package io.siteflow.agent.capture.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.capture.CaptureFileException.Kind;
import io.siteflow.agent.capture.PacketHandler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Reads every capture of the shared corpus and compares packet counts and wire-length sums with
 * tshark's (MANIFEST.tsv). Files tshark refused only for an unknown link type are read whole here:
 * the reader does not judge link types, the decoder does.
 */
class CorpusReadTest {
    private static final List<String> DIRS = List.of("edge/", "proto/", "large/");
    /**
     * Link types whose records start with a pseudo-header that tshark strips and does not count in
     * frame.len, by link type: SunATM's 4 bytes (flags, VPI, VCI). The reader delivers records as stored
     * (orig_len, pseudo-header included), so the totals are compared after this rule. Of the link types
     * with such headers, only SunATM occurs in the corpus.
     */
    private static final Map<Integer, Integer> TSHARK_PSEUDO_HEADER = Map.of(123, 4);

    @TestFactory
    Stream<DynamicTest> readsEveryCorpusFileLikeTshark() throws IOException {
        Path corpus = Path.of(System.getProperty("siteflow.corpus", "../shared/corpus"));
        Assumptions.assumeTrue(Files.isDirectory(corpus), "corpus not found at " + corpus);
        List<String> lines = Files.readAllLines(corpus.resolve("MANIFEST.tsv"));
        List<String> header = Arrays.asList(lines.get(0).split("\t", -1));
        Map<String, Integer> column = IntStream.range(0, header.size()).boxed()
                .collect(Collectors.toMap(header::get, i -> i));
        return lines.stream().skip(1).map(line -> line.split("\t", -1))
                .filter(row -> DIRS.stream().anyMatch(row[column.get("path")]::startsWith))
                .map(row -> DynamicTest.dynamicTest(row[column.get("path")],
                        () -> check(corpus, new Row(row, column))));
    }

    /** The MANIFEST columns this test uses. */
    private record Row(String path, String format, long packets, long bytes, String status, long linkTypeField,
                       long fileSize) {
        Row(String[] row, Map<String, Integer> column) {
            this(row[column.get("path")], row[column.get("file_format")], Long.parseLong(row[column.get("packets")]),
                    Long.parseLong(row[column.get("bytes")]), row[column.get("tshark_status")],
                    Long.parseLong(row[column.get("linktype_number")]), Long.parseLong(row[column.get("file_size")]));
        }

        boolean classicPcap() {
            return format.startsWith("pcap") && !format.startsWith("pcapng") || format.equals("gzip(pcap)");
        }
    }

    /** Counts packets and sums lengths (wire lengths as tshark counts them); remembers every link type seen. */
    private static final class Totals implements PacketHandler {
        long packets;
        long wireBytes;
        long capturedBytes;
        final Set<Integer> linkTypes = new TreeSet<>();

        @Override
        public void onPacket(long ts, int linkType, byte[] data, int offset, int capturedLength, int wireLength) {
            if (offset < 0 || capturedLength < 0 || offset + capturedLength > data.length) {
                throw new AssertionError("packet outside the buffer: " + offset + "+" + capturedLength);
            }
            packets++;
            wireBytes += wireLength - TSHARK_PSEUDO_HEADER.getOrDefault(linkType, 0);
            capturedBytes += capturedLength;
            linkTypes.add(linkType);
        }
    }

    private static void check(Path corpus, Row row) {
        Totals totals = new Totals();
        CaptureFileException error = null;
        try (CaptureFileReader reader = CaptureFileReader.open(corpus.resolve(row.path))) {
            reader.run(totals);
        } catch (CaptureFileException e) {
            error = e;
        }
        String status = row.status;
        if (status.startsWith("error: unsupported") && status.contains("unknown or unsupported")) {
            assertReadWhole(row, totals, error);
        } else if (status.startsWith("error: unsupported")) {
            assertThat(error).as("error").isNotNull();
            assertThat(error.kind()).as(error.getMessage()).isEqualTo(Kind.UNSUPPORTED);
        } else {
            Kind expected = status.startsWith("ok") ? null
                    : status.startsWith("truncated") ? Kind.TRUNCATED
                    : status.startsWith("error: damaged") ? Kind.CORRUPT : fail("unexpected status " + status);
            assertThat(error == null ? null : error.kind()).as(error == null ? "no error" : error.getMessage())
                    .isEqualTo(expected);
            Matcher tooBig = Pattern.compile("File has (\\d+)-byte packet").matcher(status);
            if (tooBig.find()) {
                assertThat(error.getMessage()).contains("packet record of " + tooBig.group(1) + " captured bytes");
            }
            assertThat(totals.packets).as("packets").isEqualTo(row.packets);
            assertThat(totals.wireBytes).as("bytes").isEqualTo(row.bytes);
            if (row.classicPcap() && row.packets > 0) {
                assertThat(totals.linkTypes).as("link types").containsExactly((int) (row.linkTypeField & 0xFFFF));
            }
        }
    }

    /** A classic pcap whose link type tshark does not know: every byte of it must be accounted for. */
    private static void assertReadWhole(Row row, Totals totals, CaptureFileException error) {
        assertThat(error).as(error == null ? "" : error.getMessage()).isNull();
        assertThat(row.classicPcap()).as("classic pcap").isTrue();
        assertThat(24 + 16 * totals.packets + totals.capturedBytes).as("bytes accounted for").isEqualTo(row.fileSize);
        assertThat(totals.packets).as("packets").isPositive();
        assertThat(totals.linkTypes).containsExactly((int) (row.linkTypeField & 0xFFFF));
    }
}
