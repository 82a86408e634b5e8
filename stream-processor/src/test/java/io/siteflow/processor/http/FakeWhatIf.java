package io.siteflow.processor.http;

import io.siteflow.model.CallHistogram;
import io.siteflow.model.FlowRecord;
import io.siteflow.processor.query.WhatIfSource;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.SiteModel;
import io.siteflow.rules.whatif.WhatIf;
import io.siteflow.rules.whatif.WhatIfReport;
import java.util.List;
import java.util.Map;

/**
 * The what-if over three fixed records and the model of {@link FakeQueries}: wls3's DB flow to db1 (6.5 ms,
 * 2000 calls), its cluster flow to wls4 (0.3 ms) and wls4's DB flow (12 ms). Thread-safe.
 */
final class FakeWhatIf implements WhatIfSource {
    static final long T0 = 1_764_000_000_000L;
    private final SiteModel model;

    FakeWhatIf() {
        try {
            model = SiteModelLoader.parse("sites.yaml", FakeQueries.YAML).orThrow();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public WhatIfReport whatIf(String server, String site) {
        WhatIf w = new WhatIf(model, server, site);
        for (FlowRecord r : List.of(tcp("10.2.0.20", "10.1.0.10", 1521, 900_000, 6_500L, 2_000),
                tcp("10.2.0.20", "10.2.0.21", 7001, 50_000, 300L, 0),
                tcp("10.2.0.21", "10.1.0.10", 1521, 1_000, 12_000L, 0))) {
            w.accept(r);
        }
        return w.report();
    }

    private static FlowRecord tcp(String src, String dst, int port, long bytes, Long rtt, long calls) {
        CallHistogram h = calls == 0 ? CallHistogram.EMPTY
                : CallHistogram.of(Map.of(CallHistogram.bucketOf(9_500), calls));
        return FlowRecord.builder().id("r-" + src + dst + port).agent("a").iface("f").time(T0, T0 + 10_000)
                .endpoints(6, src, 40000, dst, port).forward(bytes, 1, bytes, 0x18).reverse(bytes, 1, bytes, 0x18)
                .rttMicros(rtt).db(calls, calls * 9_500, h).build();
    }
}
