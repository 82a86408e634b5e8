package io.siteflow.agent.decode;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.IpAddresses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Walks {@code ${siteflow.corpus}}, decodes every packet and compares, per file, the packets and wire bytes
 * of each unordered IP pair with tshark's ipv4/ipv6 conversation rows in {@code truth/<path>.conv.tsv}.
 * Every pair we report must match exactly; pairs only tshark has must come from tunnels or link types we
 * do not decode (listed in {@link CorpusDifferences}). The full report goes to
 * {@code target/decoder-corpus-report.txt}.
 */
class DecoderCorpusTest {

    @Test
    void countsEveryIpPairLikeTsharkAcrossTheCorpus() throws IOException {
        Path corpus = Paths.get(System.getProperty("siteflow.corpus", "../shared/corpus")).toAbsolutePath().normalize();
        Assumptions.assumeTrue(Files.isDirectory(corpus.resolve("truth")), "corpus not found at " + corpus);
        List<Path> captures;
        try (Stream<Path> walk = Files.walk(corpus)) {
            captures = walk.filter(Files::isRegularFile)
                    .filter(p -> !corpus.relativize(p).startsWith("truth") && !corpus.relativize(p).startsWith("LICENSES"))
                    .filter(p -> Files.exists(truthOf(corpus, p)))
                    .sorted().collect(Collectors.toList());
        }
        List<String> report = new ArrayList<>();
        Map<String, String> unexplained = new TreeMap<>();
        int exact = 0;
        int onlyTsharkPairs = 0;
        for (Path capture : captures) {
            String name = corpus.relativize(capture).toString();
            FileComparison result = FileComparison.of(capture, truthOf(corpus, capture));
            if (result.exact()) {
                exact++;
                continue;
            }
            if (result.oursMatch()) {
                onlyTsharkPairs++;
            }
            report.add(name + ": " + result.describe());
            String known = CorpusDifferences.reason(name);
            if (known == null) {
                unexplained.put(name, result.describe());
            } else {
                report.add("    documented: " + known);
            }
        }
        report.add(0, String.format("%d files, %d exact, %d with only tshark-only (tunnel/unsupported) pairs, %d other",
                captures.size(), exact, onlyTsharkPairs, captures.size() - exact - onlyTsharkPairs));
        Path out = Paths.get("target", "decoder-corpus-report.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, report);
        System.out.println("DecoderCorpusTest: " + report.get(0) + " (report: " + out.toAbsolutePath() + ")");
        assertThat(captures).isNotEmpty();
        assertThat(unexplained).isEmpty();
    }

    private static Path truthOf(Path corpus, Path capture) {
        return corpus.resolve("truth").resolve(corpus.relativize(capture) + ".conv.tsv");
    }

    /** Our and tshark's pair counts for one capture. */
    record FileComparison(Map<String, long[]> ours, Map<String, long[]> truth, String error) {

        static FileComparison of(Path capture, Path truthFile) throws IOException {
            Map<String, long[]> ours = new TreeMap<>();
            PacketDecoder decoder = new PacketDecoder();
            Packet packet = new Packet();
            String error = null;
            try {
                TestCaptureReader.read(capture, (linkType, data, offset, capLen, wireLen) -> {
                    if (decoder.decode(linkType, data, offset, capLen, wireLen, packet) == DecodeStatus.IP) {
                        long[] counts = ours.computeIfAbsent(key(packet), k -> new long[2]);
                        counts[0]++;
                        counts[1] += wireLen;
                    }
                });
            } catch (RuntimeException e) {
                error = "decoder threw " + e;
            }
            return new FileComparison(ours, truth(truthFile), error);
        }

        private static String key(Packet p) {
            String a = IpAddresses.format(p.srcHi, p.srcLo);
            String b = IpAddresses.format(p.dstHi, p.dstLo);
            return "ipv" + p.ipVersion + " " + (a.compareTo(b) <= 0 ? a + " " + b : b + " " + a);
        }

        private static Map<String, long[]> truth(Path file) throws IOException {
            Map<String, long[]> rows = new TreeMap<>();
            for (String line : Files.readAllLines(file)) {
                String[] f = line.split("\t", -1);
                if (f.length < 12 || !(f[0].equals("ipv4") || f[0].equals("ipv6"))) {
                    continue;
                }
                String a = normalise(f[1]);
                String b = normalise(f[3]);
                String key = f[0] + " " + (a.compareTo(b) <= 0 ? a + " " + b : b + " " + a);
                long[] counts = rows.computeIfAbsent(key, k -> new long[2]);
                counts[0] += Long.parseLong(f[10]);
                counts[1] += Long.parseLong(f[11]);
            }
            return rows;
        }

        private static String normalise(String address) {
            try {
                long[] v = IpAddresses.parse(address);
                return IpAddresses.format(v[0], v[1]);
            } catch (IllegalArgumentException e) {
                return address;
            }
        }

        boolean oursMatch() {
            return error == null && ours.entrySet().stream().allMatch(e -> same(e.getValue(), truth.get(e.getKey())));
        }

        boolean exact() {
            return oursMatch() && ours.size() == truth.size();
        }

        private static boolean same(long[] a, long[] b) {
            return b != null && a[0] == b[0] && a[1] == b[1];
        }

        String describe() {
            StringBuilder sb = new StringBuilder(error == null ? "" : error + "; ");
            ours.forEach((k, v) -> {
                long[] t = truth.get(k);
                if (!same(v, t)) {
                    sb.append(String.format("%n    %s ours %d/%d tshark %s", k, v[0], v[1],
                            t == null ? "none" : t[0] + "/" + t[1]));
                }
            });
            truth.forEach((k, t) -> {
                if (!ours.containsKey(k)) {
                    sb.append(String.format("%n    %s only tshark %d/%d", k, t[0], t[1]));
                }
            });
            return sb.toString();
        }
    }
}
