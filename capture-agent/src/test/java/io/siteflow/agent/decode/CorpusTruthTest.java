package io.siteflow.agent.decode;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Walks {@code ${siteflow.corpus}}, replays every capture through the agent (reader → decoder → flow
 * table, as {@code siteflow capture -r} does) and compares, per file, the packets and wire bytes of each
 * unordered IP pair, summed over both directions of all records, with tshark's ipv4/ipv6 conversation rows
 * in {@code truth/<path>.conv.tsv}.
 * A file passes when the counts are equal; when tshark counts more only because it also counts tunnels'
 * inner headers (verified: those frames carry the pair's addresses again) or reads link types we do not;
 * or when it is listed, with its reason, in {@link CorpusDifferences}. Report:
 * {@code target/decoder-corpus-report.txt}.
 */
class CorpusTruthTest {

    @Test
    void countsEveryIpPairLikeTsharkAcrossTheCorpus() throws IOException {
        Path corpus = Paths.get(System.getProperty("siteflow.corpus", "../shared/corpus")).toAbsolutePath().normalize();
        Assumptions.assumeTrue(Files.isDirectory(corpus.resolve("truth")), "corpus not found at " + corpus);
        List<Path> captures;
        try (Stream<Path> walk = Files.walk(corpus)) {
            captures = walk.filter(Files::isRegularFile)
                    .filter(p -> Files.exists(truthOf(corpus, p)))
                    .sorted().collect(Collectors.toList());
        }
        Map<CorpusFile.Verdict, Integer> verdicts = new EnumMap<>(CorpusFile.Verdict.class);
        Map<String, String> unexplained = new TreeMap<>();
        List<String> report = new ArrayList<>();
        for (Path capture : captures) {
            String name = corpus.relativize(capture).toString().replace('\\', '/');
            CorpusFile file = CorpusFile.compare(capture, truthOf(corpus, capture));
            CorpusFile.Verdict verdict = file.verdict();
            verdicts.merge(verdict, 1, Integer::sum);
            if (verdict == CorpusFile.Verdict.EXACT) {
                continue;
            }
            String documented = CorpusDifferences.reason(name);
            report.add(verdict + " " + name + (documented == null ? "" : " [documented: " + documented + "]")
                    + file.describe());
            if (verdict == CorpusFile.Verdict.DIFFERENT && documented == null) {
                unexplained.put(name, file.describe());
            }
        }
        String summary = captures.size() + " files: " + verdicts;
        report.add(0, summary);
        Path out = Paths.get("target", "corpus-truth-report.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, report);
        System.out.println("CorpusTruthTest: " + summary + " (report: " + out.toAbsolutePath() + ")");
        assertThat(captures).hasSizeGreaterThan(0);
        assertThat(unexplained).isEmpty();
    }

    private static Path truthOf(Path corpus, Path capture) {
        return corpus.resolve("truth").resolve(corpus.relativize(capture) + ".conv.tsv");
    }
}
