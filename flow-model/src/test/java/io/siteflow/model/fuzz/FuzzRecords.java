package io.siteflow.model.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.siteflow.model.FlowRecord;

/**
 * Builds flow records from fuzzer input: any text, nullable fields absent or present, numbers anywhere in the
 * ranges the reader accepts (DESIGN.md "Flow record": counters and times not negative, ports 0-65535, ...); any
 * text as the {@code l7} name, listed or not; the flow-export fields absent or present (any exporter text, any
 * observation domain of 32 bits, any sampling rate from 2), drawn last so that older inputs build what they did.
 */
final class FuzzRecords {
    private FuzzRecords() {
    }

    static FlowRecord record(FuzzedDataProvider in) {
        return FlowRecord.builder().agent(in.consumeString(24)).iface(in.consumeString(16))
                .time(count(in), count(in))
                .endpoints(in.consumeInt(0, 255), in.consumeString(40), port(in), in.consumeString(40), port(in))
                .forward(count(in), count(in), count(in), flags(in)).reverse(count(in), count(in), count(in), flags(in))
                .rttMicros(in.consumeBoolean() ? count(in) : null).l7(in.consumeBoolean() ? in.consumeString(16) : null)
                .sni(in.consumeBoolean() ? in.consumeString(64) : null).isFinal(in.consumeBoolean())
                .id(in.consumeString(40)).dataRttMicros(in.consumeBoolean() ? count(in) : null)
                .exporter(in.consumeBoolean() ? in.consumeString(40) : null,
                        in.consumeBoolean() ? in.consumeLong(0, 0xFFFF_FFFFL) : null)
                .sampled(in.consumeBoolean() ? in.consumeInt(2, Integer.MAX_VALUE) : null).build();
    }

    private static long count(FuzzedDataProvider in) {
        return in.consumeLong(0, Long.MAX_VALUE);
    }

    private static int port(FuzzedDataProvider in) {
        return in.consumeInt(0, 65535);
    }

    private static int flags(FuzzedDataProvider in) {
        return in.consumeInt(0, 0xFFF);
    }
}
