package io.siteflow.agent.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.siteflow.agent.export.ExportCounters;
import io.siteflow.agent.export.ExportDecoder;

/**
 * Fuzz harnesses for the NetFlow v5, NetFlow v9 and IPFIX decoder ({@link ExportDecoder}), one per version: the input
 * is a sequence of datagrams ({@link ExportHarness#datagrams}) of that version, decoded through the collector's own
 * path (decoder, then {@code BiflowJoiner}) with small bounds (16 templates, 4 domains per exporter) and a short
 * template lifetime, so that template floods, withdrawal and expiry are reached. Whatever the bytes: nothing is
 * thrown; every datagram and every flow is counted; the joined records add up to exactly the flows' bytes and
 * packets and read back from JSON the same; heap and direct buffers give the same outcome; the first message of each
 * malformed kind names the exporter and offsets inside the datagram; no more flows than bytes. An endless loop is a
 * finding of the fuzzer's per-input timeout. Seeds: {@code src/test/resources/io/siteflow/agent/fuzz/
 * ExportDecoderFuzzTestInputs/} (written by {@code ExportSeeds}); docs/FUZZING.md.
 */
class ExportDecoderFuzzTest {

    @FuzzTest
    void decodesAnyNetFlowV5Datagrams(byte[] input) {
        decode(input, 5);
    }

    @FuzzTest
    void decodesAnyNetFlowV9Datagrams(byte[] input) {
        decode(input, 9);
    }

    @FuzzTest
    void decodesAnyIpfixMessages(byte[] input) {
        decode(input, 10);
    }

    private static void decode(byte[] input, int version) {
        ExportHarness.check(ExportHarness.datagrams(input, new byte[] {0, (byte) version}),
                counters -> decoder(counters)::decode, ExportCounters::records);
    }

    private static ExportDecoder decoder(ExportCounters counters) {
        return new ExportDecoder(counters, 1, ExportHarness.TEMPLATE_LIFETIME_MS, 16, 4);
    }
}
