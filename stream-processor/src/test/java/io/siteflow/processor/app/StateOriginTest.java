package io.siteflow.processor.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateOriginTest {
    private static final Path S = Path.of("/var/lib/siteflow/processor");
    private static final StateOrigin A = new StateOrigin("clusterA", Map.of("siteflow.flows", "id-f1",
            "siteflow.agents", "id-a1", "app-seen-ids-changelog", "id-c1"));

    @TempDir
    Path dir;

    @Test
    void stateFromAnotherClusterIsDiscardedNamingBothClusters() {
        StateOrigin b = new StateOrigin("clusterB", Map.of("siteflow.flows", "id-f1", "siteflow.agents", "id-a1"));

        assertThat(A.mismatch(b, S)).hasValue("state in /var/lib/siteflow/processor was built from cluster clusterA; "
                + "this is cluster clusterB: discarding it and rebuilding from the topics");
    }

    @Test
    void stateFromARecreatedTopicIsDiscardedNamingTheTopicAndBothIds() {
        StateOrigin now = new StateOrigin("clusterA", Map.of("siteflow.flows", "id-f1", "siteflow.agents", "id-a2",
                "app-seen-ids-changelog", "id-c1"));

        assertThat(A.mismatch(now, S)).hasValue("state in /var/lib/siteflow/processor was built from topic "
                + "siteflow.agents with id id-a1; that topic was recreated (id id-a2 now): discarding it and "
                + "rebuilding from the topics");
    }

    @Test
    void stateFromADeletedChangelogIsDiscarded() {
        StateOrigin now = new StateOrigin("clusterA", Map.of("siteflow.flows", "id-f1", "siteflow.agents", "id-a1"));

        assertThat(A.mismatch(now, S)).hasValue("state in /var/lib/siteflow/processor was built from topic "
                + "app-seen-ids-changelog (id id-c1), which cluster clusterA no longer has: discarding it and "
                + "rebuilding from the topics");
    }

    @Test
    void stateOfTheSameClusterAndTopicsIsKeptEvenWhenTopicsWereAdded() {
        StateOrigin now = new StateOrigin("clusterA", Map.of("siteflow.flows", "id-f1", "siteflow.agents", "id-a1",
                "app-seen-ids-changelog", "id-c1", "app-alerts-changelog", "id-c2"));

        assertThat(A.mismatch(now, S)).isEmpty();
    }

    @Test
    void roundTripsThroughItsFile() {
        A.write(dir.resolve("app"));

        assertThat(StateOrigin.read(dir.resolve("app"))).hasValue(A);
        assertThat(dir.resolve("app").resolve(StateOrigin.FILE + ".tmp")).doesNotExist();
    }

    @Test
    void roundTripsTheGlobalStoresEndOffsetsAndIgnoresThemWhenComparing() {
        StateOrigin stopped = A.withGlobalEnds(Map.of("siteflow.agents-2", 7L, "siteflow.sites-0", 1L));

        stopped.write(dir);

        assertThat(StateOrigin.read(dir)).hasValue(stopped);
        assertThat(stopped.mismatch(A, S)).isEmpty();
    }

    @Test
    void anEndOffsetThatIsNoNumberIsRefusedNamingTheFileAndKey() throws IOException {
        Files.writeString(dir.resolve(StateOrigin.FILE), "cluster.id=c\nend.siteflow.agents-2=seven\n");

        assertThatThrownBy(() -> StateOrigin.read(dir)).isInstanceOf(UncheckedIOException.class)
                .hasMessage("java.io.IOException: " + dir.resolve(StateOrigin.FILE)
                        + ": end.siteflow.agents-2: \"seven\" is not an offset");
    }

    @Test
    void stateWithoutARecordedOriginIsKept() {
        StateOrigin now = new StateOrigin("clusterB", Map.of());

        assertThat(LocalState.mismatch(S, dir.resolve("app"), now)).isEmpty();
    }

    @Test
    void aFileWithoutAClusterIdIsRefusedNamingIt() throws IOException {
        Files.writeString(dir.resolve(StateOrigin.FILE), "topic.siteflow.flows=x\n");

        assertThatThrownBy(() -> StateOrigin.read(dir)).isInstanceOf(UncheckedIOException.class)
                .hasMessage("java.io.IOException: " + dir.resolve(StateOrigin.FILE) + ": no cluster.id");
    }

    @Test
    void recordsTheTopicsTheTopologyReadsIncludingItsGlobalStores() {
        StreamsBuilder b = new StreamsBuilder();
        b.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("g"), Serdes.String(),
                Serdes.String()).withLoggingDisabled(), "in.global", Consumed.with(Serdes.String(), Serdes.String()),
                () -> new org.apache.kafka.streams.processor.api.Processor<String, String, Void, Void>() {
                    @Override
                    public void process(org.apache.kafka.streams.processor.api.Record<String, String> r) {
                    }
                });
        b.stream("in.a", Consumed.with(Serdes.String(), Serdes.String())).to("out", Produced.with(Serdes.String(),
                Serdes.String()));

        assertThat(LocalState.sourceTopics(b.build())).isEqualTo(Set.of("in.global", "in.a"));
    }
}
