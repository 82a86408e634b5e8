package io.siteflow.processor.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StaleTaskDirsTest {
    @TempDir
    Path app;

    @Test
    void removesTheStateOfSubTopologiesTheTopologyDoesNotHave() throws IOException {
        for (String task : new String[] {"0_0", "0_1", "1_0", "3_2"}) {
            Files.createDirectories(app.resolve(task).resolve("rocksdb").resolve("store"));
            Files.writeString(app.resolve(task).resolve(".checkpoint"), "0\n");
        }
        Files.createDirectories(app.resolve("global"));
        Files.writeString(app.resolve("kafka-streams-process-metadata"), "{}");

        assertThat(StaleTaskDirs.remove(app, oneSubTopology())).containsExactly("1_0", "3_2");

        try (Stream<Path> left = Files.list(app)) {
            assertThat(left.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("0_0", "0_1", "global", "kafka-streams-process-metadata");
        }
        assertThat(app.resolve("0_1").resolve("rocksdb").resolve("store")).isDirectory();
    }

    @Test
    void leavesAMissingDirectoryAlone() {
        assertThat(StaleTaskDirs.remove(app.resolve("never-started"), oneSubTopology())).isEmpty();
    }

    private static Topology oneSubTopology() {
        StreamsBuilder b = new StreamsBuilder();
        b.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        return b.build();
    }
}
