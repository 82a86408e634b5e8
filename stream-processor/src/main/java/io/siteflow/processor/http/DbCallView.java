package io.siteflow.processor.http;

import io.siteflow.model.CallHistogram;
import io.siteflow.processor.query.DbCallHistogram;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The body of {@code /api/dbcalls}: per audited pair with DB calls, its call-time histogram as rows
 * {@code [fromMicros, toMicros, calls]} (the bucket's bounds rounded to whole µs, only buckets with calls,
 * shortest first). Immutable.
 */
record DbCallView(String server, String remoteSite, long calls, List<long[]> buckets) {

    static List<DbCallView> of(List<DbCallHistogram> histograms) {
        List<DbCallView> out = new ArrayList<>();
        for (DbCallHistogram h : histograms) {
            List<long[]> rows = new ArrayList<>();
            for (Map.Entry<Integer, Long> e : new TreeMap<>(h.histogram().toMap()).entrySet()) {
                int b = e.getKey();
                rows.add(new long[] {Math.round(CallHistogram.lowerBound(b)), Math.round(CallHistogram.lowerBound(b + 1)),
                    e.getValue()});
            }
            out.add(new DbCallView(h.server(), h.remoteSite(), h.histogram().total(), rows));
        }
        return out;
    }
}
