package io.siteflow.agent.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.siteflow.agent.export.ExportCounters;
import io.siteflow.agent.export.SflowDecoder;

/**
 * Fuzz harness for the sFlow v5 decoder ({@link SflowDecoder}): the input is a sequence of sFlow datagrams
 * ({@link ExportHarness#datagrams}, the version word set to 5) from one exporter, decoded through the collector's own
 * path (decoder, the agent's packet decoder on the sampled headers, then {@code BiflowJoiner}) with at most 4 agents
 * and sub-agents. The contract is {@link ExportDecoderFuzzTest}'s: nothing thrown; every datagram and sampled packet
 * counted; joined records that add up to the sampled packets times their rates and read back from JSON the same; heap
 * buffers (the sampled header read in place) and direct ones (copied) alike; faults named with exporter and offsets.
 * Seeds: {@code src/test/resources/io/siteflow/agent/fuzz/SflowDecoderFuzzTestInputs/}; docs/FUZZING.md.
 */
class SflowDecoderFuzzTest {

    @FuzzTest
    void decodesAnySflowDatagrams(byte[] input) {
        ExportHarness.check(ExportHarness.datagrams(input, new byte[] {0, 0, 0, 5}),
                counters -> {
                    SflowDecoder d = new SflowDecoder(counters, 1, 4);
                    return (ex, datagram, now, out) -> d.decode(ex, datagram, out);
                }, ExportCounters::sflowPackets);
    }
}
