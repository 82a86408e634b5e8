package io.siteflow.model.fuzz;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.model.L7Protocol;
import io.siteflow.model.wire.Heartbeat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes the seed inputs of this module's fuzz harnesses with the module's own writers ({@link FlowRecordJson},
 * {@link Heartbeat#toJson()}). Run by {@code bench/fuzz.sh --seeds}; the output is committed under
 * {@code src/test/resources/io/siteflow/model/fuzz/}. Argument: the module directory.
 */
public final class SeedCorpus {
    /**
     * A TCP database flow with RTTs, a UDP flow without, a TLS flow with a server name over IPv6, an exported flow
     * (exporter, observation domain, sampled).
     */
    public static final List<FlowRecord> RECORDS = List.of(
            FlowRecord.builder().id("run1-17").agent("wls3").iface("ens3").time(1_764_000_000_000L, 1_764_000_010_000L)
                    .endpoints(6, "10.2.0.20", 40112, "10.1.0.10", 1521).forward(9_312_000, 7000, 9_802_000, 0x1B)
                    .reverse(120_000, 3000, 318_000, 0x1B).rttMicros(6500L).dataRttMicros(6510L)
                    .l7(L7Protocol.ORACLE_TNS).build(),
            FlowRecord.builder().id("run2-1").agent("edge-r1").iface("ens4").time(1_764_000_000_000L, 1_764_000_000_004L)
                    .endpoints(17, "10.2.0.21", 53011, "10.1.0.2", 53).forward(61, 1, 75, 0).reverse(77, 1, 91, 0)
                    .isFinal(true).build(),
            FlowRecord.builder().id("run3-99").agent("wls4").iface("ens3").time(1_764_000_000_000L, 1_764_000_030_000L)
                    .endpoints(6, "fd00:2::21", 51000, "fd00:1::11", 443).forward(4000, 12, 4960, 0x1F)
                    .reverse(90_000, 70, 95_600, 0x1B).rttMicros(6600L).l7(L7Protocol.TLS).sni("soa.region1.example")
                    .isFinal(true).build(),
            FlowRecord.builder().id("edge-b-7").agent("edge-b").iface("0.0.0.0:2055")
                    .time(1_764_000_000_000L, 1_764_000_009_870L).endpoints(6, "10.2.0.20", 40112, "10.1.0.10", 1521)
                    .forward(931_200, 700, 0, 0x1B).reverse(12_000, 300, 0, 0x1A).exporter("192.0.2.1", 256L)
                    .sampled(10).isFinal(true).build());

    private SeedCorpus() {
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]).resolve("src/test/resources/io/siteflow/model/fuzz");
        for (FlowRecord r : RECORDS) {
            write(out.resolve("FlowRecordJsonFuzzTestInputs/parsesOrRejectsWithAMessage"), r.id(),
                    FlowRecordJson.toBytes(r));
        }
        write(out.resolve("HeartbeatFuzzTestInputs/readsOrAnswersEmpty"), "wls3",
                new Heartbeat("wls3", "ens3", 1_764_000_000_000L, 123_456, 7, 0, 2, 1000, 10, 0).toJson());
        write(out.resolve("HeartbeatFuzzTestInputs/readsOrAnswersEmpty"), "edge-r1",
                new Heartbeat("edge-r1", "", 1_764_000_000_000L, 0, 0, 0, 0, 0, 0, 500).toJson());
        write(out.resolve("HeartbeatFuzzTestInputs/readsOrAnswersEmpty"), "edge-b",
                new Heartbeat("edge-b", "0.0.0.0:2055", 1_764_000_000_000L, 1_122, 6, 0, 0, 1_122, 0, 0, List.of(),
                        new Heartbeat.Export(335, 1_082, 3, 1, 40, 2, 5, 7)).toJson());
    }

    private static void write(Path dir, String name, byte[] content) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve(name), content);
    }
}
