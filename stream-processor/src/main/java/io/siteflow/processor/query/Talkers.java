package io.siteflow.processor.query;

import io.siteflow.processor.topology.TalkerKey;
import io.siteflow.processor.topology.TalkerStats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;

/**
 * Turns talker statistics into {@link TalkerRow}s like iftop: rates over the last 2, 10 and 40 seconds ending at
 * the rate end {@link #endSecond}. Port mode gives one row per stored key (service port on the side that offers
 * it, 0 on the ephemeral side); host mode sums the port rows of a host pair <em>per category</em> (rates and
 * totals add up, the peak is the largest peak of its parts): a host pair with DB and JMS traffic is two rows,
 * never one label over a mixed sum. Sorted by the 10 s rate (out + in), largest first. Stateless.
 */
final class Talkers {
    /**
     * How long rates keep ending at the newest second of data after it arrived (wall clock): the agent's
     * interim-record period (10 s), so a long flow whose bytes arrive in 10 s records does not read 0 between them.
     */
    static final long HOLD_MS = 10_000;

    private Talkers() {
    }

    static List<TalkerRow> rows(List<KeyValue<String, TalkerStats>> stats, boolean ports, String category, int limit,
                                long wallNowMs) {
        long now = endSecond(stats, wallNowMs);
        Map<String, List<TalkerRow>> rows = new LinkedHashMap<>();
        for (KeyValue<String, TalkerStats> kv : stats) {
            TalkerKey k = TalkerKey.parse(kv.key);
            if (category != null && !k.category().name().equals(category)) {
                continue;
            }
            TalkerRow r = row(k, kv.value, now, ports, wallNowMs);
            String id = ports ? kv.key : k.local() + "|" + k.remote() + "|" + k.category().name();
            rows.computeIfAbsent(id, x -> new ArrayList<>()).add(r);
        }
        List<TalkerRow> out = new ArrayList<>();
        rows.values().forEach(parts -> out.add(parts.stream().reduce(Talkers::sum).orElseThrow()));
        out.sort(Comparator.comparingDouble((TalkerRow r) -> r.out10s() + r.in10s()).reversed()
                .thenComparing(TalkerRow::local).thenComparing(TalkerRow::remote).thenComparing(TalkerRow::category));
        return out.subList(0, Math.min(Math.max(limit, 0), out.size()));
    }

    /**
     * The second the rate columns end with (event time): the newest second any row has seen while that data is
     * at most {@link #HOLD_MS} old (wall clock); after that it moves on with the wall clock, so rates fall to zero
     * when records stop (the 2 s column 12 s after the last record, the 40 s column 50 s after).
     */
    static long endSecond(List<KeyValue<String, TalkerStats>> stats, long wallNowMs) {
        long newest = stats.stream().mapToLong(kv -> kv.value.newestSecond()).max().orElse(0);
        long updated = stats.stream().mapToLong(kv -> kv.value.updatedMs()).max().orElse(wallNowMs);
        return newest + Math.max(0, wallNowMs - updated - HOLD_MS) / 1000;
    }

    private static TalkerRow row(TalkerKey k, TalkerStats s, long now, boolean ports, long wallNowMs) {
        return new TalkerRow(k.local(), ports ? k.localPort() : 0, k.remote(), ports ? k.remotePort() : 0,
                k.category().name(), s.outRate(now, 2), s.outRate(now, 10), s.outRate(now, 40), s.outTotal(),
                s.outPeak(), s.inRate(now, 2), s.inRate(now, 10), s.inRate(now, 40), s.inTotal(), s.inPeak(),
                Math.max(0, wallNowMs - s.updatedMs()));
    }

    /** Two parts of one row (same ends and category). */
    private static TalkerRow sum(TalkerRow a, TalkerRow b) {
        return new TalkerRow(a.local(), a.localPort(), a.remote(), a.remotePort(), a.category(),
                a.out2s() + b.out2s(), a.out10s() + b.out10s(), a.out40s() + b.out40s(), a.outTotal() + b.outTotal(),
                Math.max(a.outPeak(), b.outPeak()), a.in2s() + b.in2s(), a.in10s() + b.in10s(), a.in40s() + b.in40s(),
                a.inTotal() + b.inTotal(), Math.max(a.inPeak(), b.inPeak()), Math.min(a.ageMs(), b.ageMs()));
    }
}
