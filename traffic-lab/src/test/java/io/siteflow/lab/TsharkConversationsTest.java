package io.siteflow.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TsharkConversations} on a corpus capture gives the corpus's exact truth row (tshark must be installed), and
 * fails naming both counts when tshark's table and the script disagree.
 */
class TsharkConversationsTest {
    private static final Path CORPUS = Path.of(System.getProperty("siteflow.corpus", "../shared/corpus"));

    @TempDir
    Path dir;

    @Test
    void readsTheCorpusTruthOfATnsCapture() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(CORPUS), "corpus not found at " + CORPUS);
        List<TsharkConversations.Conversation> rows = TsharkConversations.tcp(
                CORPUS.resolve("proto/arkime/oracle.pcap"), CORPUS.resolve("truth/conv.lua"));
        // truth/proto/arkime/oracle.pcap.conv.tsv: tcp 10.0.0.16 64084 10.0.0.17 1522 0 5 598 1 78 6 676
        assertThat(rows).containsExactly(
                new TsharkConversations.Conversation("10.0.0.16", 64084, "10.0.0.17", 1522, 0, 5, 598, 1, 78));
        assertThat(rows.get(0).frames()).isEqualTo(6);
        assertThat(rows.get(0).wireBytes()).isEqualTo(676);
        assertThat(rows.get(0).between("10.0.0.16", "10.0.0.17", 1522)).isTrue();
        assertThat(rows.get(0).between("10.0.0.17", "10.0.0.16", 64084)).isTrue();
        assertThat(rows.get(0).between("10.0.0.16", "10.0.0.17", 1521)).isFalse();
    }

    @Test
    void failsNamingBothCountsWhenTheTableAndTheScriptDisagree() throws IOException {
        Assumptions.assumeTrue(Files.isDirectory(CORPUS), "corpus not found at " + CORPUS);
        Path capture = CORPUS.resolve("proto/arkime/oracle.pcap");
        Path script = Files.writeString(dir.resolve("wrong.lua"), """
                local lf = Listener.new("frame")
                function lf.draw()
                  print("@@CONV\\ttcp\\t10.0.0.16\\t64084\\t10.0.0.17\\t1522\\t0\\t1\\t78\\t1\\t78\\t2\\t156\\t1\\t6")
                end
                """);
        assertThatThrownBy(() -> TsharkConversations.tcp(capture, script)).isInstanceOf(IOException.class)
                .hasMessage(capture + ": tshark's conv,tcp frames {10.0.0.16:64084 10.0.0.17:1522=6} differ from "
                        + script + "'s {10.0.0.16:64084 10.0.0.17:1522=2}");
    }
}
