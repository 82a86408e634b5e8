package io.siteflow.processor.topology;

import static io.siteflow.processor.topology.Flows.T0;
import static io.siteflow.processor.topology.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seam after classification: a stage attached through {@link SiteflowTopology#build} with a stage list (the
 * product passes {@link SiteflowTopology#STAGES}) sees every classified record exactly once, with the
 * classification the route step used, and the route and audit steps' outputs are those of the topology without it.
 */
class ClassifiedStageTest {
    static final String SEEN = "test.classified";

    /** A stage as the isolation stage will be one: reads the classified records, writes a topic of its own. */
    static final ClassifiedStage RECORDING = new ClassifiedStage() {
        @Override
        public String name() {
            return "recording";
        }

        @Override
        public void attach(KStream<byte[], Classified> classified, TopologyConfig config, PipelineMetrics metrics) {
            classified.map((k, c) -> org.apache.kafka.streams.KeyValue.pair(new String(k, StandardCharsets.UTF_8),
                            c.record().id() + " " + c.classification().category() + " " + c.classification().rule().name()
                                    + " " + c.classification().srcSite().name() + ">" + c.classification().dstSite().name()
                                    + " " + c.model().model().version().substring(0, 7)), Named.as("recording-describe"))
                    // a stage keyed otherwise (the isolation stage keys by edge) repartitions: its own sub-topology
                    .repartition(Repartitioned.<String, String>as("recording-by-key")
                            .withKeySerde(TopologySpec.STRING).withValueSerde(TopologySpec.STRING))
                    .to(SEEN, Produced.with(TopologySpec.STRING, TopologySpec.STRING).withName("recording-out"));
        }
    };

    @TempDir
    Path plainDir;
    @TempDir
    Path stagedDir;

    @Test
    void aStageAtTheSeamSeesEachClassifiedRecordOnceAndChangesNoOutput() {
        try (Driver plain = new Driver(TopologyConfig.DEFAULTS, plainDir, Instant.ofEpochMilli(T0));
             Driver staged = new Driver(TopologyConfig.DEFAULTS, stagedDir, Instant.ofEpochMilli(T0),
                     List.of(RECORDING))) {
            var seen = staged.driver.createOutputTopic(SEEN, new StringDeserializer(), new StringDeserializer());

            for (Driver d : List.of(plain, staged)) {
                feed(d);
            }

            // every record read, not a repeat, with a model in force: once each, with its classification
            List<TestRecord<String, String>> got = seen.readRecordsToList();
            assertThat(got).extracting(TestRecord::key, TestRecord::value, TestRecord::timestamp).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("10.2.0.20", "stage-2 DB oracle-ports region2>region1 sha256:",
                            T0 + 1_000),
                    org.assertj.core.groups.Tuple.tuple("10.9.9.9", "stage-3 UNKNOWN (none) (unknown)>(unknown) sha256:", T0 + 2_000),
                    org.assertj.core.groups.Tuple.tuple("edge-b", "stage-4 DB oracle-ports region3>region1 sha256:",
                            T0 + 3_000),
                    org.assertj.core.groups.Tuple.tuple("10.2.0.20", "stage-5 DB oracle-ports region2>region1 sha256:",
                            T0 + 200_000));
            // route and audit: the same verdicts, alerts, dead letters and stores as without the stage
            assertThat(records(staged.verdicts.readRecordsToList())).isNotEmpty()
                    .isEqualTo(records(plain.verdicts.readRecordsToList()));
            assertThat(records(staged.alerts.readRecordsToList())).isEqualTo(records(plain.alerts.readRecordsToList()));
            assertThat(staged.dlq.readRecordsToList()).extracting(TestRecord::value, TestRecord::timestamp)
                    .isEqualTo(plain.dlq.readRecordsToList().stream().map(r -> org.assertj.core.groups.Tuple.tuple(
                            r.value(), r.timestamp())).toList()).hasSize(1);
            assertThat(staged.queries().cumulativeVerdicts()).isEqualTo(plain.queries().cumulativeVerdicts());
            assertThat(staged.cumulative("10.2.0.20|region1").crossBytes()).isEqualTo(1_500 + 700);
            assertThat(staged.metrics.duplicates()).isEqualTo(1);
            assertThat(staged.metrics.noModel.count()).isEqualTo(1.0);
        }
    }

    @Test
    void theProductListsTheIsolationAndWhatIfStagesAndATopologyWithoutStagesHasNoSeamNode() {
        assertThat(SiteflowTopology.STAGES).extracting(ClassifiedStage::name).containsExactly("isolation", "whatif");
        String product = SiteflowTopology.build(TopologyConfig.DEFAULTS).describe().toString();
        String bare = SiteflowTopology.build(TopologyConfig.DEFAULTS, new ModelCache(),
                PipelineMetrics.unregistered(), List.of()).describe().toString();
        String staged = SiteflowTopology.build(TopologyConfig.DEFAULTS, new ModelCache(),
                PipelineMetrics.unregistered(), List.of(RECORDING)).describe().toString();

        assertThat(bare).doesNotContain(IngestStep.CLASSIFIED);
        // the flows sub-topology keeps its number, which names its tasks' state directories (2_0, 2_1, ...): Kafka
        // Streams numbers sub-topologies in the order their sources were added, so a stage's own comes after it
        assertThat(bare).contains("Sub-topology: 2\n    Source: flows (topics: [siteflow.flows])");
        assertThat(product).contains("Sub-topology: 2\n    Source: flows (topics: [siteflow.flows])",
                "Sub-topology: 3\n    Source: isolation-by-edge-repartition-source (topics: [isolation-by-edge-repartition])",
                "Sink: isolation-to-topic (topic: siteflow.isolation)", "Sink: isolation-to-alerts (topic: siteflow.alerts)",
                "Sub-topology: 4\n    Source: whatif-by-server-repartition-source (topics: [whatif-by-server-repartition])",
                "Processor: whatif (stores: [");
        assertThat(staged).contains("Sub-topology: 2\n    Source: flows (topics: [siteflow.flows])",
                "Sub-topology: 3\n    Source: recording-by-key-repartition-source");
        assertThat(staged).contains("Processor: " + IngestStep.CLASSIFIED + " (stores: [])",
                "Sink: recording-out (topic: " + SEEN + ")");
    }

    /** The same input for both drivers: before the model, read, repeated, unreadable, unaudited, elsewhere, later. */
    private static void feed(Driver d) {
        d.send(flow().id("stage-1").at(T0).bytes(900, 0)); // no model in force yet: dropped, counted
        d.withSites(Flows.SITES_YAML);
        FlowRecord db = flow().id("stage-2").at(T0 + 1_000).bytes(1_500, 0).build();
        d.send(db);
        d.send(db); // a repeat
        d.sendRaw("10.2.0.20", "not a record".getBytes(StandardCharsets.UTF_8));
        d.send(flow().id("stage-3").at(T0 + 2_000).from("10.9.9.9", 5555).to("10.8.8.8", 80).bytes(300, 0));
        // keyed by the agent, not the server: its copy goes through by-server
        d.flows.pipeInput("edge-b".getBytes(StandardCharsets.UTF_8),
                FlowRecordJson.toBytes(flow().id("stage-4").at(T0 + 3_000).from("10.3.0.30", 40001).bytes(400, 0)
                        .build()));
        d.send(flow().id("stage-5").at(T0 + 200_000).bytes(700, 0)); // closes the first windows
    }

    private static List<String> records(List<TestRecord<String, String>> rs) {
        return rs.stream().map(r -> r.key() + " @" + r.timestamp() + " " + r.value()).toList();
    }
}
