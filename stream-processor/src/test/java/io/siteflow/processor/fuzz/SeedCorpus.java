package io.siteflow.processor.fuzz;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordFormatException;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.processor.topology.TopologySpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Writes the seed inputs of this module's fuzz harnesses with the project's own writers (the topology's
 * {@link TopologySpec#FLOW_RECORD} serializer over the records of flow-model's JSON seeds) and one valid request
 * per API endpoint.
 * Run by {@code bench/fuzz.sh --seeds}; the output is committed under
 * {@code src/test/resources/io/siteflow/processor/fuzz/}. Argument: the repository root.
 */
public final class SeedCorpus {
    private static final List<String> REQUESTS = List.of(
            "1764000000000\n2026-11-29T22:00:00Z\n10.2.0.20", "2026-11-29T21:00:00Z\n1764000000000",
            "1764000000000\n1764000600000\ncsv", "20", "true\nDB\n10", "latest",
            "tcp 10.2.0.20:40112 -> 10.1.0.10:1521 l7=oracle-tns");

    private SeedCorpus() {
    }

    public static void main(String[] args) throws IOException, FlowRecordFormatException {
        Path root = Path.of(args[0]);
        Path out = root.resolve("stream-processor/src/test/resources/io/siteflow/processor/fuzz");
        Path binary = out.resolve("FlowRecordBinaryFuzzTestInputs/readsOrRefusesNamingTheTopic");
        Path json = out.resolve("FlowRecordBinaryFuzzTestInputs/roundTripsEveryRecordTheJsonCodecAccepts");
        for (FlowRecord r : records(root.resolve("flow-model/src/test/resources/io/siteflow/model/fuzz/"
                + "FlowRecordJsonFuzzTestInputs/parsesOrRejectsWithAMessage"))) {
            write(binary, r.id(), TopologySpec.FLOW_RECORD.serializer().serialize("seed", r));
            write(binary, r.id() + ".json", FlowRecordJson.toBytes(r));
            write(json, r.id(), FlowRecordJson.toBytes(r));
        }
        Path http = out.resolve("HttpParamsFuzzTestInputs/answersOkOrABadRequestNamingTheParameter");
        for (int i = 0; i < REQUESTS.size(); i++) {
            byte[] text = REQUESTS.get(i).getBytes(StandardCharsets.UTF_8);
            byte[] input = new byte[text.length + 1];
            input[0] = (byte) i;
            System.arraycopy(text, 0, input, 1, text.length);
            write(http, HttpParamsFuzzTest.ENDPOINTS.get(i).get(0).substring(5), input);
        }
    }

    /** The flow-model harness's JSON seeds, written by its own {@code SeedCorpus}. */
    private static List<FlowRecord> records(Path dir) throws IOException, FlowRecordFormatException {
        List<FlowRecord> records = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir).sorted()) {
            for (Path f : files.toList()) {
                records.add(FlowRecordJson.parse(Files.readAllBytes(f)));
            }
        }
        return records;
    }

    private static void write(Path dir, String name, byte[] content) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve(name), content);
    }
}
