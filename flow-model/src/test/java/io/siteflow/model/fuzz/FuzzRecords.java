package io.siteflow.model.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.siteflow.model.FlowRecord;

/**
 * Builds flow records from fuzzer input: any text, nullable fields absent or present, numbers anywhere in the
 * ranges the reader accepts (DESIGN.md "Flow record": counters and times not negative, ports 0-65535, ...).
 */
final class FuzzRecords {
    private FuzzRecords() {
    }

    static FlowRecord record(FuzzedDataProvider in) {
        return new FlowRecord(FlowRecord.SCHEMA, in.consumeString(24), in.consumeString(16), count(in), count(in),
                in.consumeInt(0, 255), in.consumeString(40), port(in), in.consumeString(40), port(in),
                count(in), count(in), count(in), count(in), count(in), count(in), flags(in), flags(in),
                in.consumeBoolean() ? count(in) : null, in.consumeBoolean() ? in.consumeString(16) : null,
                in.consumeBoolean() ? in.consumeString(64) : null, in.consumeBoolean(), in.consumeString(40),
                in.consumeBoolean() ? count(in) : null);
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
