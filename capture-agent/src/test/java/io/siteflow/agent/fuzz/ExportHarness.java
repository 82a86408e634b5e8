package io.siteflow.agent.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.export.BiflowJoiner;
import io.siteflow.agent.export.ExportCounters;
import io.siteflow.agent.export.ExportFlow;
import io.siteflow.agent.export.ExportReceiver;
import io.siteflow.agent.export.ExporterState;
import io.siteflow.agent.export.Malformed;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordFormatException;
import io.siteflow.model.FlowRecordJson;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the flow-export harnesses share: the input cut into datagrams, each decoded twice (from a heap buffer that is
 * a slice of a larger array, and from a direct buffer) through the collector's own path, decoder then
 * {@link BiflowJoiner}, and the contract checked. Input layout: {@code [u16 length][datagram]...}, the last datagram
 * taking what is left; the version field of each datagram is overwritten with the harness's version, so that the
 * mutations reach the decoder instead of its version check. Datagram {@code i} arrives at {@code i} × 61 s, with a
 * template lifetime of 150 s, so that a template is kept for the next two datagrams and expires after.
 */
final class ExportHarness {
    static final String EXPORTER = "192.0.2.1";
    static final long BASE_MS = 1_764_000_000_000L;
    static final long STEP_MS = 61_000;
    static final long TEMPLATE_LIFETIME_MS = 150_000;
    private static final Pattern OFFSET = Pattern.compile("offset (\\d+)");
    private static final int PAD = 11;

    /** One decoder over a fresh set of counters: NetFlow/IPFIX or sFlow. */
    interface Decoder {
        void decode(ExporterState exporter, ByteBuffer datagram, long nowMs, ExportReceiver out);
    }

    /** Everything a run gave, compared between the two buffer kinds. */
    record Outcome(List<String> records, String counters, long calls, long addressedBytes, long addressedPackets) {
    }

    private ExportHarness() {
    }

    /** The datagrams of {@code input}, each one's first {@code version.length} bytes set to {@code version}. */
    static List<byte[]> datagrams(byte[] input, byte[] version) {
        List<byte[]> out = new ArrayList<>();
        int p = 0;
        while (p + 2 <= input.length && out.size() < 64) {
            int len = Math.min((input[p] & 0xFF) << 8 | (input[p + 1] & 0xFF), input.length - p - 2);
            byte[] d = Arrays.copyOfRange(input, p + 2, p + 2 + len);
            System.arraycopy(version, 0, d, 0, Math.min(version.length, d.length));
            out.add(d);
            p += 2 + len;
        }
        return out;
    }

    /** The inverse of {@link #datagrams}: what the seed writer writes. */
    static byte[] input(List<byte[]> datagrams) {
        ByteBuffer b = ByteBuffer.allocate(datagrams.stream().mapToInt(d -> d.length + 2).sum());
        for (byte[] d : datagrams) {
            b.putShort((short) d.length).put(d);
        }
        return b.array();
    }

    /**
     * Decodes {@code datagrams} from heap and from direct buffers and checks the contract: never throws; the same
     * outcome from both; every datagram counted; every flow given on is counted as a record ({@code countedFlows}
     * reads the decoder's count) and the joined records add up to exactly the bytes and packets of the flows with
     * both addresses (times the sampling rate); no more flows than bytes (a record that reads no byte would loop);
     * every record writes to JSON and reads back the same; the first message of each malformed kind names the
     * exporter and offsets inside the datagram.
     */
    static Outcome check(List<byte[]> datagrams, Function<ExportCounters, Decoder> decoders,
            ToLongFunction<ExportCounters> countedFlows) {
        Outcome heap = run(datagrams, decoders, countedFlows, false);
        Outcome direct = run(datagrams, decoders, countedFlows, true);
        assertThat(direct).isEqualTo(heap);
        return heap;
    }

    private static Outcome run(List<byte[]> datagrams, Function<ExportCounters, Decoder> decoders,
            ToLongFunction<ExportCounters> countedFlows, boolean directBuffers) {
        ExportCounters counters = new ExportCounters();
        Decoder decoder = decoders.apply(counters);
        ExporterState exporter = ExporterState.of(EXPORTER);
        List<FlowRecord> records = new ArrayList<>();
        FlowTableConfig config = new FlowTableConfig(16, Duration.ofSeconds(100), Duration.ofSeconds(70),
                FlowTableConfig.DEFAULTS.closeLinger(), false);
        BiflowJoiner joiner = new BiflowJoiner("fuzz", "0.0.0.0:2055", "run", config, records::add);
        long totalBytes = datagrams.stream().mapToLong(d -> d.length).sum();
        long[] tally = new long[3];
        ExportReceiver receiver = (ex, domain, f, rate) -> {
            tally[0]++;
            if (tally[0] > totalBytes) {
                throw new AssertionError("more flows (" + tally[0] + ") than bytes (" + totalBytes
                        + "): a record that reads no byte");
            }
            checkFlow(f, rate);
            if (addressed(f)) {
                long r = Math.max(rate, 1);
                tally[1] += f.bytes() * r + (f.biflow() ? f.rbytes() * r : 0);
                tally[2] += f.packets() * r + (f.biflow() ? f.rpackets() * r : 0);
            }
            joiner.flow(ex, domain, f, rate);
        };
        int longest = 0;
        for (int i = 0; i < datagrams.size(); i++) {
            byte[] d = datagrams.get(i);
            longest = Math.max(longest, d.length);
            long now = BASE_MS + i * STEP_MS;
            joiner.now(now);
            decoder.decode(exporter, buffer(d, directBuffers), now, receiver);
            joiner.expire(now);
        }
        joiner.flushAll();

        assertThat(counters.datagrams()).isEqualTo(datagrams.size());
        assertThat(countedFlows.applyAsLong(counters)).isEqualTo(tally[0]);
        long bytes = 0;
        long packets = 0;
        List<String> json = new ArrayList<>();
        for (FlowRecord r : records) {
            bytes += r.bytes() + r.rbytes();
            packets += r.packets() + r.rpackets();
            String text = FlowRecordJson.toJson(r);
            try {
                assertThat(FlowRecordJson.parse(text)).as(text).isEqualTo(r);
            } catch (FlowRecordFormatException e) {
                throw new AssertionError("a joined record does not read back: " + e.getMessage() + ": " + text, e);
            }
            json.add(text);
        }
        assertThat(bytes).as("bytes of the joined records").isEqualTo(tally[1]);
        assertThat(packets).as("packets of the joined records").isEqualTo(tally[2]);
        for (Malformed kind : Malformed.values()) {
            if (counters.malformed(kind) > 0) {
                checkMessage(counters.firstMessage(kind), longest);
            }
        }
        return new Outcome(json, counters.malformedByKind() + " records " + countedFlows.applyAsLong(counters)
                + " options " + counters.optionsRecords() + " lost " + counters.lostRecords() + "/"
                + counters.lostPackets() + "/" + counters.sflowLostDatagrams() + " resets " + counters.sequenceResets()
                + " expired " + counters.templatesExpired(), tally[0], tally[1], tally[2]);
    }

    private static boolean addressed(ExportFlow f) {
        return f.hasSource() && f.hasDestination();
    }

    private static void checkFlow(ExportFlow f, long rate) {
        assertThat(rate).as("sampling rate").isPositive();
        assertThat(f.proto()).isBetween(0, 255);
        assertThat(f.srcPort()).isBetween(0, 65535);
        assertThat(f.dstPort()).isBetween(0, 65535);
        assertThat(f.bytes()).as("bytes").isNotNegative();
        assertThat(f.packets()).as("packets").isNotNegative();
        assertThat(f.rbytes()).as("reverse bytes").isNotNegative();
        assertThat(f.rpackets()).as("reverse packets").isNotNegative();
    }

    private static void checkMessage(String message, int longest) {
        assertThat(message).startsWith("exporter " + EXPORTER + ": ");
        Matcher m = OFFSET.matcher(message);
        while (m.find()) {
            assertThat(Long.parseLong(m.group(1))).as(message).isBetween(0L, (long) longest);
        }
    }

    /** {@code d} in a heap buffer that is a slice of a larger array (non-zero array offset), or a direct one. */
    private static ByteBuffer buffer(byte[] d, boolean direct) {
        if (direct) {
            ByteBuffer b = ByteBuffer.allocateDirect(d.length);
            b.put(d).flip();
            return b;
        }
        byte[] padded = new byte[PAD + d.length + PAD];
        Arrays.fill(padded, (byte) 0x5A);
        System.arraycopy(d, 0, padded, PAD, d.length);
        return ByteBuffer.wrap(padded, PAD, d.length).slice();
    }
}
